import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

/// The host's bounds on what a plugin writes (`PeerLimits`): a flooding plugin is
/// stopped and reported as flooding, a silent one as timed out, and nothing it forked
/// outlives it. Against `hostile-plugin` (the real plugin behind a misbehaving proxy).
@Suite("Peer bounds")
struct PeerBoundsTests {
    /// Catches hangs only: a passing run ends as soon as the plugin is stopped.
    static let hangBound: Duration = .seconds(SanitizerBuild.active ? 300 : 60)

    func hostile(_ mode: String, limits: PeerLimits = .default) throws -> PluginConnection {
        try PluginConnection(
            plugin: .init(executable: Binaries.hostilePlugin, environment: ["HOSTILE_MODE": mode]),
            options: .init(defaultTimeout: Self.hangBound, stderrLine: { _ in }, log: { _ in }, limits: limits))
    }

    @Test("a plugin that floods after its first reply fails the next call as flooding, and is stopped")
    func floodAfterTheFirstReply() async throws {
        let connection = try hostile("flood")
        let pid = try #require(connection.pluginProcess?.pid)
        _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        let error = await #expect(throws: HostError.self) {
            _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        }
        #expect(error?.code == .flooding)
        #expect(error?.description.contains("written without a request from the host") == true)
        connection.close()
        #expect(!processExists(pid))
    }

    @Test("a plugin that floods from the start fails the first call")
    func floodAtStart() async throws {
        var limits = PeerLimits.default
        limits.maxUnpromptedFrames = 5_000
        let connection = try hostile("flood-at-start", limits: limits)
        let error = await #expect(throws: HostError.self) {
            _ = try await connection.call(Initialize.self, .init(events: true))
        }
        #expect(error?.code == .flooding)
        #expect(error?.description.contains("limit 5,000 frames") == true)
        connection.close()
    }

    @Test("events nobody reads are held within maxHeldFrames, then the plugin is stopped")
    func unreadEventsAreBounded() async throws {
        var limits = PeerLimits.default
        limits.maxHeldFrames = 100
        let connection = try PluginConnection(
            plugin: .init(executable: Binaries.plugin, arguments: ["--events"]),
            options: .init(defaultTimeout: Self.hangBound, stderrLine: { _ in }, log: { _ in }, limits: limits))
        // Each startKeepalive submits two requests: two events, never read here.
        var failure: HostError?
        for _ in 0..<60 {
            do {
                _ = try await connection.call(method: StartKeepalive.name, params: nil)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.code == .flooding)
        #expect(failure?.description.contains("of events not taken from `notifications`") == true)
        connection.close()
    }

    @Test("events read as they come are not counted against the bound")
    func readEventsAreReleased() async throws {
        var limits = PeerLimits.default
        limits.maxHeldFrames = 10
        let connection = try PluginConnection(
            plugin: .init(executable: Binaries.plugin, arguments: ["--events"]),
            options: .init(defaultTimeout: Self.hangBound, stderrLine: { _ in }, log: { _ in }, limits: limits))
        var events = connection.notifications.makeAsyncIterator()
        for _ in 0..<40 {
            _ = try await connection.call(method: StartKeepalive.name, params: nil)
            #expect(await events.next()?.method == "os/requestSubmitted")
            #expect(await events.next()?.method == "os/requestSubmitted")
        }
        connection.close()
    }

    @Test("a silent plugin: a direct call times out, naming the call, and the plugin is stopped")
    func silentPluginTimesOut() throws {
        let connection = try DirectConnection(
            plugin: .init(executable: Binaries.hostilePlugin, environment: ["HOSTILE_MODE": "silent"]))
        connection.timeout = .milliseconds(300)
        let pid = try #require(connection.pid)
        let error = #expect(throws: HostError.self) {
            _ = try connection.call(method: PluginStateMethod.name, params: nil)
        }
        #expect(error == .timedOut(method: "plugin/state", seconds: 0.3))
        #expect(connection.transport.waitForExit(timeout: Self.hangBound) != nil)
        connection.close()
        #expect(!processExists(pid))
    }

    @Test("a child the plugin forked that holds its stdout is stopped with it")
    func aForkedChildGoesWithThePlugin() async throws {
        let connection = try hostile("fork-holds-stdout")
        let pid = try #require(connection.pluginProcess?.pid)
        _ = try await connection.call(PluginStateMethod.self, EmptyParams())
        // The plugin has exited; its child sleeps with the plugin's stdout open.
        _ = connection.transport.waitForExit(timeout: Self.hangBound)
        #expect(kill(-pid, 0) == 0)  // the group still has a member: the child
        let clock = ContinuousClock()
        let start = clock.now
        connection.close(grace: .milliseconds(100))
        #expect(clock.now - start < Self.hangBound)
        // SIGKILL is delivered when the child is next scheduled, and init reaps it later:
        // wait (within the hang bound) until no live process is left in the group.
        while groupHasLiveMembers(pid), clock.now - start < Self.hangBound { usleep(10_000) }
        #expect(!groupHasLiveMembers(pid))
    }

    /// Whether any process that is not a zombie belongs to process group `pgid` (`/proc/PID/stat`).
    func groupHasLiveMembers(_ pgid: Int32) -> Bool {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.contains { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After "(comm)": state, ppid, pgrp, ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == pgid
        }
    }

    @Test("the meter counts frames and bytes against both bounds and says so in words")
    func meter() {
        var meter = OutputMeter(frames: 2, bytes: 1_000)
        #expect(meter.add(bytes: 400) == nil)
        #expect(meter.add(bytes: 400) == nil)
        #expect(meter.add(bytes: 10) == "3 frames, 810 bytes (limit 2 frames or 1000 bytes)")
        meter.remove(bytes: 10)
        #expect(meter.frames == 2 && meter.bytes == 800)
        meter.reset()
        #expect(meter.add(bytes: 3_000)?.hasPrefix("1 frames, 2.9 KiB") == true)
        #expect(OutputMeter.count(1_234_567) == "1,234,567" && OutputMeter.count(-1_000) == "-1,000")
        #expect(OutputMeter.size(64 << 20) == "64 MiB" && OutputMeter.size(1536) == "1.5 KiB")
    }
}
