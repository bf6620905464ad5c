import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The bounds that must hold where the plugin is out of reach or clever: a child in a
/// session of its own holding the plugin's stdout, a plugin that stops reading its
/// input, early responses that would reset a count, a timeline full of large frames.
@Suite("Peer bounds: out of reach")
struct PeerBoundsMoreTests {
    static let hangBound = PeerBoundsTests.hangBound

    @Test("a child in a session of its own holding stdout: a call times out and close ends the reader")
    func aChildOutOfTheGroup() async throws {
        let tag = TaggedProcesses()
        defer { for pid in tag.running() { kill(pid, SIGKILL) } }
        let connection = try PluginConnection(
            plugin: .init(
                executable: Binaries.hostilePlugin,
                environment: tag.environment(["HOSTILE_MODE": "setsid-holds-stdout"])),
            options: .init(defaultTimeout: .seconds(1), stderrLine: { _ in }, log: { _ in }))
        // The first answer comes from a live plugin: it may take long under a starved sanitizer
        // run (the fresh-clone CI's ThreadSanitizer run once missed the 1 s default).
        _ = try await connection.call(
            PluginStateMethod.self, EmptyParams(), timeout: .seconds(SanitizerBuild.active ? 120 : 10))
        // The plugin has exited; a `setsid sleep` holds its stdout, out of the group's reach.
        let error = await #expect(throws: HostError.self) {
            _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        }
        #expect(error?.code == .timedOut || error?.code == .pluginExited, "\(String(describing: error))")
        let clock = ContinuousClock()
        let start = clock.now
        connection.close(grace: .milliseconds(100))
        #expect(clock.now - start < Self.hangBound)
        // The reader saw the end although the pipe's write end is still open in the child.
        #expect(connection.pluginProcess?.outputDescriptor == -1, "the reader thread still waits on stdout")
    }

    @Test("a plugin that stops reading: a call whose write blocks times out, and the plugin is stopped")
    func aPluginThatStopsReading() async throws {
        let connection = try PluginConnection(
            plugin: .init(executable: Binaries.hostilePlugin, environment: ["HOSTILE_MODE": "deaf"]),
            options: .init(stderrLine: { _ in }, log: { _ in }))
        let pid = try #require(connection.pluginProcess?.pid)
        // 4 MiB of params: far more than a pipe holds, so the write blocks.
        let big = JSONValue.object(["label": .string(String(repeating: "x", count: 4 << 20))])
        let error = await #expect(throws: HostError.self) {
            _ = try await connection.call(method: StartKeepalive.name, params: big, timeout: .milliseconds(500))
        }
        #expect(error == .timedOut(method: StartKeepalive.name, seconds: 0.5))
        #expect(connection.transport.waitForExit(timeout: Self.hangBound) != nil, "the plugin was stopped")
        connection.close()
        #expect(!processExists(pid))
    }

    @Test("a direct connection counts what it still holds when an early response is taken")
    func earlyResponsesStayCounted() throws {
        var limits = PeerLimits.default
        limits.maxHeldFrames = 12
        let connection = DirectConnection(
            transport: try PluginProcess(options: .init(executable: Binaries.plugin, arguments: ["--events"])),
            limits: limits)
        defer { connection.close() }
        // Three starts: a reply and two events each. Waiting for the third holds 8 frames.
        let first = connection.send(method: StartKeepalive.name, params: nil)
        _ = connection.send(method: StartKeepalive.name, params: nil)
        let third = connection.send(method: StartKeepalive.name, params: nil)
        try connection.flush()
        _ = try connection.response(to: third)
        _ = try connection.response(to: first)  // taken from the early ones: 7 still held
        for _ in 0..<2 { _ = connection.send(method: StartKeepalive.name, params: nil) }
        let last = connection.send(method: StartKeepalive.name, params: nil)
        try connection.flush()
        let error = #expect(throws: HostError.self) { _ = try connection.response(to: last) }
        #expect(error?.code == .flooding, "7 held and 8 more read pass 12")
        #expect(connection.takeEvents().count >= 6)
    }

    @Test("a simulation's timeline is bounded in bytes too: past them the plugin is stopped as flooding")
    func timelineBytesAreBounded() async throws {
        let limits = PeerLimits(maxHeldBytes: 4 << 10)
        let launcher = PluginLauncher(executable: Binaries.plugin, arguments: ["--clock", "virtual"])
        let failure = try await onThread { () throws -> String in
            let plugin = try SimulationPlugin(launcher: launcher, limits: limits)
            defer { plugin.close() }
            let sim = try SystemSimulation(
                options: .init(plugin: launcher, serviceFactory: { SyncService(runSeconds: 20) }), plugin: plugin)
            defer { sim.detach() }
            for _ in 0..<100 {
                do {
                    try sim.os(OSSetConditions.self, .init(externalPower: true))
                } catch {
                    return "\(error)"
                }
            }
            return "no failure"
        }
        #expect(failure.contains("flooded"), "\(failure)")
        #expect(failure.contains("limit 200,000 entries or 4 KiB"), "\(failure)")
    }
}
