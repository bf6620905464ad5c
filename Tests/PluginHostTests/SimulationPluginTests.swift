import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// One plugin serving simulation after simulation: each run is the run a fresh
/// plugin gives, whatever the one before it left behind.
@Suite("Simulation plugin")
struct SimulationPluginTests {
    static let arguments = ["--profile", "seed", "--clock", "virtual"]

    /// A day that ends with the service running and its `waitForCancel` pending in the
    /// plugin: what the next simulation on the same plugin must not see.
    static func play(_ sim: SystemSimulation) throws -> String {
        #expect(try sim.start() == nil)
        try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
        try sim.advance(30)
        #expect(try sim.start() == nil, "the first run ended at 20 s")
        try sim.advance(10)
        #expect(try sim.pluginState().cancelInvokePending == true)
        return TimelineRenderer.text(sim.timeline)
    }

    static func options(_ launcher: PluginLauncher) -> SystemSimulation.Options {
        .init(plugin: launcher, serviceFactory: { SyncService(runSeconds: 20) })
    }

    @Test func aReusedPluginRunsAsAFreshOne() async throws {
        let launcher = PluginLauncher(executable: Binaries.plugin, arguments: Self.arguments)
        let fresh = try await onThread { () throws -> String in
            let sim = try SystemSimulation(options: Self.options(launcher))
            defer { sim.close() }
            return try Self.play(sim)
        }
        #expect(
            fresh.contains("#2 startKeepalive") && fresh.contains("#12 waitForCancel"), "ids from 1 (#1 is initialize)")
        for reused in [launcher, .inProcess(arguments: Self.arguments)] {
            let runs = try await onThread { () throws -> [String] in
                let plugin = try SimulationPlugin(launcher: reused)
                defer { plugin.close() }
                return try (0..<3).map { _ in
                    let sim = try SystemSimulation(options: Self.options(reused), plugin: plugin)
                    defer { sim.detach() }
                    return try Self.play(sim)
                }
            }
            #expect(runs == [fresh, fresh, fresh], "\(reused): a run on a reused plugin differs from a fresh one")
        }
    }

    @Test func aDetachedSimulationLeavesNoTaskOrCallBehind() async throws {
        try await onThread {
            let plugin = try SimulationPlugin(launcher: .inProcess(arguments: Self.arguments))
            defer { plugin.close() }
            let sim = try SystemSimulation(options: Self.options(.inProcess()), plugin: plugin)
            _ = try Self.play(sim)
            #expect(plugin.client.connection.pendingMethods == ["waitForCancel"])
            sim.detach()
            #expect(plugin.client.connection.pendingCount == 0, "the listener's call was given up on")
            #expect(sim.executor.queuedCount == 0, "every host task has run to its end")
            // Calls fail until the next simulation takes the plugin over.
            #expect(throws: HostError.closed) {
                _ = try plugin.client.connection.callBlocking(method: "plugin/state", params: nil)
            }
            let next = try SystemSimulation(options: Self.options(.inProcess()), plugin: plugin)
            defer { next.detach() }
            let state = try next.pluginState()
            #expect(state.cancelInvokePending == false && state.activeTask == nil && state.now == .zero)
        }
    }
}
