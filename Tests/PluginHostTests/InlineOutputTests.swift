import Dispatch
import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import PluginHost

/// A connection to the engine in this process reads no pipe on a thread of its own:
/// the answers are handed to it on the writing thread (`InlineOutput`), in order,
/// whoever writes.
@Suite("Output handed over on the writing thread")
struct InlineOutputTests {
    func connect(_ arguments: [String] = []) throws -> PluginConnection {
        try PluginConnection.inProcess(arguments: arguments, options: .init(stderrLine: { _ in }))
    }

    @Test func anAnswerArrivesBeforeTheWriteReturns() throws {
        let connection = try connect()
        #expect(connection.inline != nil)
        let answered = Box<JSONValue?>(nil)
        connection.start(method: PluginStateMethod.name, params: nil, timeout: .seconds(60)) { result in
            answered.set(try? result.get())
        }
        // No reader thread could have run yet: the completion ran inside `start`.
        let answer = answered.get
        #expect(answer?["now"] != nil)
        #expect(connection.pendingCount == 0)
        #expect(connection.close() == .exited(0))
    }

    @Test func rawBytesAreAnsweredToTheTapBeforeTheWriteReturns() throws {
        let answered = Box<[RequestID]>([])
        let connection = try PluginConnection.inProcess(
            options: .init(
                tap: { event in
                    if case .receivedResponse(let r) = event { answered.update { $0.append(r.id) } }
                }, stderrLine: { _ in }))
        try connection.sendRaw(Array(#"{"jsonrpc":"2.0","id":77,"method":"plugin/state"}"#.utf8) + [0x0A])
        #expect(answered.get == [.int(77)])
        connection.close()
    }

    @Test func aCompletionThatCallsAgainIsAnsweredToo() throws {
        let connection = try connect()
        let order = Box<[String]>([])
        let done = DispatchSemaphore(value: 0)
        connection.start(method: PluginStateMethod.name, params: nil) { _ in
            order.update { $0.append("first") }
            // Written while the first answer is being handed over: handed over after it.
            connection.start(method: PluginStateMethod.name, params: nil) { _ in
                order.update { $0.append("second") }
                done.signal()
            }
            order.update { $0.append("first done") }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(order.get == ["first", "first done", "second"])
        connection.close()
    }

    @Test func manyThreadsCallingAtOnceAreEachAnsweredOnce() async throws {
        let connection = try connect()
        let answers = Box<[RequestID: Int]>([:])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        let id = connection.nextID()
                        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                            connection.start(
                                id: id, method: CancelCancelListener.name, params: nil, timeout: .seconds(30)
                            ) { result in
                                answers.update { $0[id, default: 0] += 1 }
                                c.resume(with: result.map { _ in () })
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = answers.get
        #expect(counts.count == 1600)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(connection.close() == .exited(0))
    }

    @Test func theEndReachesAPendingCall() throws {
        let connection = try connect()
        let failed = Box<HostError?>(nil)
        let done = DispatchSemaphore(value: 0)
        // A waitForCancel stays pending; the end of the engine's output fails it.
        connection.start(method: WaitForCancel.name, params: nil) { result in
            if case .failure(let error) = result { failed.set(error) }
            done.signal()
        }
        #expect(connection.pendingCount == 1)
        connection.transport.terminate()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failed.get?.code == .pluginExited)
    }
}
