import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import PluginHost

/// `PluginConnection` over the in-process transport: the real JSON-RPC of the
/// plugin's engine, in this process, through the same seam as a process.
@Suite("PluginConnection in process")
struct InProcessConnectionTests {
    func connect(
        _ arguments: [String] = [], tap: (@Sendable (ConnectionEvent) -> Void)? = nil
    ) throws -> PluginConnection {
        try PluginConnection.inProcess(arguments: arguments, options: .init(tap: tap, stderrLine: { _ in }))
    }

    @Test func callsAreAnswered() async throws {
        let connection = try connect()
        #expect(connection.pluginProcess == nil, "no process: the engine is in this one")
        let state = try await connection.call(PluginStateMethod.self, EmptyParams())
        #expect(state.now == .zero)
        #expect(state.registered.map(\.identifier) == ["com.example.app.bg-processing", "com.example.app.bg-refresh"])
        let info = try await connection.call(Initialize.self, .init(events: false))
        #expect(info.protocolVersion == "1" && info.serverName == "background-service-plugin")
        do {
            _ = try await connection.call(method: "no/such", params: nil)
            Issue.record("an unknown method succeeded")
        } catch {
            #expect(error.code == .rpcError && error.rpcCode == .methodNotFound)
        }
        #expect(connection.close() == .exited(0))
    }

    @Test func eventsArriveInOrderWithTheReplies() async throws {
        let seen = Box<[String]>([])
        let connection = try connect(tap: { event in
            switch event {
            case .receivedNotification(let n): seen.update { $0.append("event \(n.method)") }
            case .receivedResponse(let r): seen.update { $0.append("response \(r.id)") }
            default: break
            }
        })
        let client = BackgroundServiceClient(connection: connection)
        try await client.os.initialize(events: true)
        try await client.startKeepalive(StartKeepaliveConfig())
        var iterator = connection.notifications.makeAsyncIterator()
        let kinds = [await iterator.next(), await iterator.next()].compactMap { $0?.params?["kind"]?.stringValue }
        #expect(kinds == ["refresh", "processing"])
        // Both events come before the startKeepalive reply that caused them.
        let submitted = "event \(RequestSubmittedEvent.name)"
        #expect(seen.get == ["response 1", submitted, submitted, "response 2"])
        connection.close()
    }

    /// A hang-catcher for the waits below, never reached by a passing run (a starved
    /// sanitizer run took minutes to get from arming a wait to expiring the task).
    static let waitBound: Duration = .seconds(SanitizerBuild.active ? 600 : 60)

    @Test func aWaitStaysPendingUntilTheTaskExpires() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        try await client.startKeepalive(StartKeepaliveConfig())
        let launched = try await client.os.launch("com.example.app.bg-refresh")
        let wait = client.armWaitForCancel(timeout: Self.waitBound)
        let state = try await client.os.state()
        #expect(state.cancelInvokePending == true, "the engine holds the wait")
        #expect(connection.pendingMethods == ["waitForCancel"])
        try await client.os.expire(launched.identifier)
        #expect(try await wait.signal() == .resolved)
        #expect(connection.pendingCount == 0)
        // A second wait is rejected when the listener is cancelled.
        let second = client.armWaitForCancel(timeout: Self.waitBound)
        try await client.cancelCancelListener()
        let rejected = CancelSignal.rejected(reason: .listenerCancelled, message: "invoke rejected: listenerCancelled")
        #expect(try await second.signal() == rejected)
        connection.close()
    }

    @Test func aBatchIsAnsweredWithOneArrayInOrder() async throws {
        let batches = Box<[JSONValue]>([])
        let connection = try connect(tap: { if case .receivedOther(let v) = $0 { batches.update { $0.append(v) } } })
        let batch =
            #"[{"jsonrpc":"2.0","id":"b1","method":"os/pendingTaskRequests"},"#
            + #"{"jsonrpc":"2.0","method":"plugin/state"},{"jsonrpc":"2.0","id":"b2","method":"no/such"}]"#
        try connection.sendRaw(Array(batch.utf8) + [0x0A])
        // A call written after the batch is answered after it.
        _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        let reply = try #require(batches.get.first?.arrayValue)
        #expect(reply.map { $0["id"] } == [.string("b1"), .string("b2")], "the notification gets no entry")
        #expect(reply[0]["result"] == .array([]))
        #expect(reply[1]["error"]?["code"] == .number(-32601))
        connection.close()
    }

    @Test func shutdownEndsTheEngineAndFailsWhatIsPending() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        let wait = client.armWaitForCancel(timeout: Self.waitBound)
        try await client.os.shutdown()
        #expect(try await wait.signal() == .rejected(reason: .shutdown, message: "invoke rejected: shutdown"))
        #expect(connection.transport.waitForExit(timeout: .seconds(10)) == .exited(0))
        await #expect(throws: HostError.pluginExited(.exited(0))) { try await client.os.state() }
        #expect(connection.close() == .exited(0))
    }

    /// As a process exits 0 when its stdin closes, the engine's output ends with status 0.
    @Test func closeEndsTheInputAndFailsCallsThenAndAfter() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        let wait = client.armWaitForCancel()
        _ = try await client.os.state()
        #expect(connection.close() == .exited(0))
        await #expect(throws: HostError.pluginExited(.exited(0))) { _ = try await wait.signal() }
        await #expect(throws: HostError.pluginExited(.exited(0))) { try await client.os.state() }
        #expect(connection.pendingCount == 0)
    }

    @Test func aFrameCutOffByTheEnginesExitFailsCallsWithItsStatus() async throws {
        let protocolErrors = Box<[String]>([])
        let connection = try PluginConnection.inProcess(
            environment: ["BSP_FAULT": "exit-mid-frame-on-state"],
            options: .init(
                tap: { if case .protocolError(let why) = $0 { protocolErrors.update { $0.append(why) } } },
                stderrLine: { _ in }))
        await #expect(throws: HostError.pluginExited(.exited(3))) {
            _ = try await connection.call(method: "plugin/state", params: nil)
        }
        #expect(protocolErrors.get.contains { $0.contains("ended in the middle of a frame") })
        connection.close()
    }

    @Test func badArgumentsAreALaunchFailure() throws {
        do {
            _ = try PluginConnection.inProcess(arguments: ["--clock", "sundial"])
            Issue.record("a bad --clock started a plugin")
        } catch {
            #expect(error.code == .launchFailed)
            #expect(error.description.contains("--clock"))
        }
    }

    @Test func theEnginesLogIsForwardedAsStderrLines() async throws {
        let lines = Box<[String]>([])
        let connection = try PluginConnection(
            launcher: .inProcess(stderrPrefix: "[p] "),
            options: .init(stderrLine: { line in lines.update { $0.append(line) } }))
        _ = try? await connection.call(method: "no/such/method", params: nil)
        // Passed on before the request's send returned: no host code runs under the engine's lock.
        #expect(lines.get == [#"[p] background-service-plugin: unknown method "no/such/method""#])
        connection.close()
    }

    @Test func aDirectConnectionDrivesTheEngineFromItsCaller() throws {
        let direct = try DirectConnection.inProcess()
        #expect(direct.pid == nil)
        let ids = (0..<3).map { _ in direct.send(method: OSPendingTaskRequests.name, params: nil) }
        try direct.flush()
        for id in ids.reversed() { #expect(try direct.response(to: id).result == .array([])) }
        #expect(try direct.call(PluginStateMethod.self, EmptyParams()).now == .zero)
        #expect(direct.close() == .exited(0))
    }
}
