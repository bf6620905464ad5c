import Foundation
import HostProtocol
import HostTestSupport
import PluginSoak
import Synchronization
import Testing

@testable import PluginHost

/// A plugin that dies, writes garbage or cannot start: every pending call fails
/// promptly with an error that says why, and no child is left behind.
@Suite("Process faults")
struct ProcessFaultTests {
    /// Generous: the design target is 100 ms (docs/reliability.md measures it); this only
    /// catches hangs, so it must hold on a starved sanitizer run too (the wait ends as soon
    /// as all three calls have failed, so a passing run never waits for it).
    static let failureBound: Duration = .seconds(30)

    func connect(env: [String: String] = [:]) throws -> PluginConnection {
        try PluginConnection(
            plugin: .init(executable: Binaries.plugin, environment: env),
            options: .init(stderrLine: { _ in }))
    }

    /// Sends calls to a stopped plugin (so none is answered), then kills it; returns the errors and how long they took.
    func killWhilePending(signal: Int32) async throws -> ([HostError], Duration) {
        let connection = try connect()
        let process = try #require(connection.pluginProcess)
        _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        kill(process.pid, SIGSTOP)
        // kill() only queues SIGSTOP; until it takes effect the plugin could still answer
        // (seen under AddressSanitizer: two of the three calls answered).
        #expect(FaultLatency.waitUntilStopped(process.pid))
        let errors = Box<[HostError]>([])
        let done = Box<Int>(0)
        for method in ["waitForCancel", "plugin/state", "os/pendingTaskRequests"] {
            connection.start(method: method, params: nil) { result in
                if case .failure(let e) = result { errors.update { $0.append(e) } }
                done.update { $0 += 1 }
            }
        }
        #expect(connection.pendingCount == 3)
        let clock = ContinuousClock()
        let start = clock.now
        kill(process.pid, signal)
        if signal != SIGKILL { kill(process.pid, SIGCONT) }
        let elapsed: Duration = try await onThread {
            while done.get < 3, clock.now - start < ProcessFaultTests.failureBound {
                _ = process.waitForExit(timeout: .milliseconds(10))
            }
            return clock.now - start
        }
        connection.close()
        #expect(!processExists(process.pid))
        return (errors.get, elapsed)
    }

    @Test func sigkillFailsEveryPendingCall() async throws {
        let (errors, elapsed) = try await killWhilePending(signal: SIGKILL)
        #expect(errors == Array(repeating: .pluginExited(.signaled(SIGKILL)), count: 3))
        #expect(elapsed < Self.failureBound)
        #expect(errors.first?.description == "the plugin was killed by signal 9 (SIGKILL)")
    }

    @Test func sigtermFailsEveryPendingCall() async throws {
        let (errors, elapsed) = try await killWhilePending(signal: SIGTERM)
        #expect(errors == Array(repeating: .pluginExited(.signaled(SIGTERM)), count: 3))
        #expect(elapsed < Self.failureBound)
    }

    @Test func exitMidFrameFailsPendingCallsWithTheStatus() async throws {
        let connection = try connect(env: ["BSP_FAULT": "exit-mid-frame-on-state"])
        let client = BackgroundServiceClient(connection: connection)
        let waiter = Task { try await client.waitForCancel() }
        do {
            _ = try await client.os.state()
            Issue.record("plugin/state succeeded against a plugin that exits mid-frame")
        } catch {
            #expect(error == .pluginExited(.exited(3)))
        }
        await #expect(throws: HostError.pluginExited(.exited(3))) { _ = try await waiter.value }
        connection.close()
    }

    @Test func garbageOnStdoutIsAProtocolError() async throws {
        let events = Box<[String]>([])
        let logged = Box<[String]>([])
        let connection = try PluginConnection(
            plugin: .init(executable: Binaries.plugin, environment: ["BSP_FAULT": "garbage-on-state"]),
            options: .init(
                tap: { if case .protocolError(let why) = $0 { events.update { $0.append(why) } } },
                stderrLine: { _ in },
                log: { line in logged.update { $0.append(line) } }))
        let client = BackgroundServiceClient(connection: connection)
        let waiter = Task { try await client.waitForCancel() }
        do {
            _ = try await client.os.state()
            Issue.record("a garbage reply was accepted")
        } catch {
            guard error.code == .protocolError else {
                Issue.record("expected a protocol error, got \(error)")
                return
            }
        }
        do {
            _ = try await waiter.value
            Issue.record("the pending wait survived a broken stream")
        } catch let error as HostError {
            if error.code != .protocolError { Issue.record("expected a protocol error, got \(error)") }
        }
        #expect(events.get.contains { $0.contains("unreadable") || $0.contains("not a valid") })
        #expect(logged.get.contains { $0.hasPrefix("protocol error: ") }, "the connection's log gets it")
        let status = connection.close()
        #expect(status == .signaled(SIGKILL), "the host stops a plugin whose stream it cannot trust")
        #expect(!processExists(try #require(connection.pluginProcess).pid))
    }

    @Test func missingBinaryIsAClearError() throws {
        #expect(throws: HostError.launchFailed("plugin binary not found at /nonexistent/plugin")) {
            _ = try PluginConnection(plugin: .init(executable: "/nonexistent/plugin"))
        }
    }

    @Test func nonExecutableBinaryIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-executable-\(UUID().uuidString)")
            .path
        _ = FileManager.default.createFile(
            atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: HostError.launchFailed("plugin binary at \(path) is not executable")) {
            _ = try PluginConnection(plugin: .init(executable: path))
        }
    }

    @Test func stderrIsForwardedLineByLineWithAPrefix() async throws {
        let lines = Box<[String]>([])
        let connection = try PluginConnection(
            plugin: .init(executable: Binaries.plugin, stderrPrefix: "[p] "),
            options: .init(stderrLine: { line in lines.update { $0.append(line) } }))
        _ = try? await connection.call(method: "no/such/method", params: nil)
        connection.close()
        #expect(lines.get.contains("[p] background-service-plugin: unknown method \"no/such/method\""))
    }
}
