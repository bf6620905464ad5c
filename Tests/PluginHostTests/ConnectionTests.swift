import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

/// The connection against the real plugin binary: round trips, events, errors.
@Suite("PluginConnection")
struct ConnectionTests {
    func connect(_ args: [String] = [], env: [String: String] = [:]) throws -> PluginConnection {
        try PluginConnection(
            plugin: .init(executable: Binaries.plugin, arguments: args, environment: env),
            options: .init(stderrLine: { _ in }))
    }

    @Test func requestRoundTrip() async throws {
        let connection = try connect()
        let state = try await connection.call(PluginStateMethod.self, EmptyParams())
        #expect(state.now == .zero)
        #expect(state.registered.map(\.identifier) == ["com.example.app.bg-processing", "com.example.app.bg-refresh"])
        let info = try await connection.call(Initialize.self, .init(events: false))
        #expect(info.protocolVersion == "1")
        #expect(info.refreshIdentifier == "com.example.app.bg-refresh")
        #expect(connection.close() == .exited(0))
    }

    @Test func notificationsAreDelivered() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        try await client.os.initialize(events: true)
        try await client.startKeepalive(StartKeepaliveConfig())
        var iterator = connection.notifications.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.method == RequestSubmittedEvent.name)
        #expect(second?.method == RequestSubmittedEvent.name)
        let kinds = [first, second].compactMap { $0?.params?["kind"]?.stringValue }
        #expect(kinds == ["refresh", "processing"])
        connection.close()
    }

    @Test func errorsMapToHostErrors() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        await #expect(throws: HostError.self) { try await client.os.expire("com.example.app.bg-refresh") }
        do {
            try await client.os.launch("nope")
            Issue.record("launching an unregistered identifier succeeded")
        } catch {
            #expect(error.rpcCode == .invalidParams)
        }
        do {
            _ = try await connection.call(method: "no/such", params: nil)
            Issue.record("an unknown method succeeded")
        } catch {
            #expect(error.rpcCode == .methodNotFound)
        }
        connection.close()
    }

    @Test func waitForCancelReportsRejectionAsOutcome() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        let wait = client.armWaitForCancel(timeout: .seconds(20))  // written before the cancel
        try await client.cancelCancelListener()
        let outcome = try await wait.signal()
        #expect(outcome == .rejected(reason: .listenerCancelled, message: "invoke rejected: listenerCancelled"))
        connection.close()
    }

    // No call timeout: under a sanitizer the cooperative pool can be held by other
    // tests for longer than any timeout, which would then answer the wait first.
    @Test(.timeLimit(.minutes(3))) func anArmedWaitAnswersEveryAwaiter() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        let wait = client.armWaitForCancel()
        // One awaiter is cancelled before the answer; it can await again afterwards.
        let cancelled = Task { try await wait.signal() }
        cancelled.cancel()
        await #expect(throws: HostError.cancelled) { _ = try await cancelled.value }
        async let first = wait.signal()
        async let second = wait.signal()
        try await client.cancelCancelListener()
        let expected = CancelSignal.rejected(reason: .listenerCancelled, message: "invoke rejected: listenerCancelled")
        #expect(try await first == expected)
        #expect(try await second == expected)
        #expect(try await wait.signal() == expected, "awaited again after the answer")
        connection.close()
    }

    @Test func callTimeoutStopsWaiting() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        do {
            _ = try await client.waitForCancel(timeout: .milliseconds(200))
            Issue.record("waitForCancel returned without an answer")
        } catch {
            guard error.code == .timedOut else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
            #expect(error.method == "waitForCancel")
        }
        #expect(connection.pendingCount == 0)
        // The connection is still usable, and the plugin still holds the wait.
        let state = try await client.os.state()
        #expect(state.cancelInvokePending == true)
        connection.close()
    }

    @Test func taskCancellationStopsWaiting() async throws {
        let connection = try connect()
        let client = BackgroundServiceClient(connection: connection)
        let waiter = Task { try await client.waitForCancel() }
        _ = try await client.os.state()
        waiter.cancel()
        do {
            _ = try await waiter.value
            Issue.record("a cancelled wait returned a signal")
        } catch let error as HostError {
            #expect(error == .cancelled)
        }
        #expect(connection.pendingCount == 0)
        connection.close()
    }

    @Test func closeReapsThePlugin() async throws {
        let connection = try connect()
        let pid = try #require(connection.pluginProcess).pid
        #expect(processExists(pid))
        #expect(connection.close() == .exited(0))
        #expect(!processExists(pid))
        // Calls after close fail at once.
        await #expect(throws: HostError.self) { _ = try await connection.call(PluginStateMethod.self, EmptyParams()) }
    }

    @Test func shutdownExitsZero() async throws {
        let connection = try connect()
        try await BackgroundServiceClient(connection: connection).os.shutdown()
        let status = try await onThread { connection.transport.waitForExit(timeout: .seconds(10)) }
        #expect(status == .exited(0))
        connection.close()
    }
}
