import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// A simulation under `--os ios`, no randomness in launches.
func makeIOSSimulation(
    behaviour: Profile = .seed, osSeed: UInt64 = 0, restartAtLaunch: StartKeepaliveConfig? = nil,
    factory: @escaping @Sendable () -> any BackgroundService
) throws -> SystemSimulation {
    let profile: Profile = behaviour == .strict ? .strict : .seed
    let plugin = PluginLauncher(
        executable: Binaries.plugin,
        arguments: ["--profile", profile.rawValue, "--os", "ios", "--os-seed", String(osSeed)],
        stderrPrefix: "[plugin] ")
    let sim = try SystemSimulation(
        options: .init(
            plugin: plugin, behaviour: behaviour, serviceFactory: factory, appStartsServiceAtLaunch: restartAtLaunch))
    try sim.os(
        OSSetPolicy.self,
        try .init(json: [
            "refreshDelayMaxSecs": 0, "processingDelayMaxSecs": 0, "refreshEarlyExpiryChance": 0,
            // One task at a time: these tests step the Rust side through one task's life
            // (two at once are ConcurrentTasksTests's subject).
            "maxConcurrentTasks": 1,
        ]))
    return sim
}

extension SystemSimulation {
    var notes: [String] { timeline.compactMap { if case .note(let t) = $0.kind { t } else { nil } } }
    func events(_ method: String) -> [RPCNotification] {
        timeline.compactMap { if case .event(let n) = $0.kind, n.method == method { n } else { nil } }
    }
}

/// `SystemSimulation` under `--os ios`: time stepped through `ios.nextEventAt`, app
/// termination ending the Rust side, and a cold start making a fresh one. Virtual clock only.
@Suite("SystemSimulation --os ios")
struct IOSSimulationTests {
    @Test func stepsToThePolicysOwnLaunchAndBudget() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.advance(1000)
            // The policy launched the refresh task at its earliest date (no delay drawn), and the
            // safety timer (28 s, within the 30 s budget) resolved the listener: the service stopped.
            let launched = sim.events(TaskLaunchedEvent.name)
            #expect(launched.count == 1)
            #expect(launched.first?.params?["at"]?.doubleValue == 900)
            #expect(sim.serviceEvents.contains(.stopRequested(.listenerResolved(generation: 1))))
            #expect(try sim.status().isRunning == false)
            #expect(sim.now == VirtualTime(seconds: 1000)!)
        }
    }

    @Test func terminationEndsTheRustSideAndNothingWaits() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 3600, onCancel: .ignore) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            let first = sim.currentProcess
            #expect(sim.clock.sleeperCount > 0)
            try sim.os(OSTerminate.self, .init(reason: .system))
            #expect(first.lifetime.isEnded)
            // The plugin answered the listener's waitForCancel (terminated); the service's sleep ended.
            #expect(sim.deadProcessCalls.isEmpty)
            #expect(sim.baseClient.connection.pendingCalls.isEmpty)
            #expect(sim.clock.sleeperCount == 0)
            let ended = AppTermination(process: 1, reason: .system, at: .zero, serviceWasRunning: true)
            #expect(sim.terminations == [ended])
            // The dead process's calls never reach the plugin.
            let requestsBefore = sim.rustRequests.count
            try sim.host { _ in _ = try? await first.client.stopKeepalive() }
            #expect(sim.rustRequests.count == requestsBefore)
        }
    }

    @Test func coldStartGetsAFreshIdleRustSide() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSTerminate.self, .init(reason: .system))
            try sim.advance(950)
            #expect(sim.processes.count == 2)
            let relaunch = try #require(sim.relaunches.first)
            #expect(relaunch.cause == .backgroundTask && relaunch.at == VirtualTime(seconds: 900)!)
            #expect(relaunch.serviceMeantToRun && relaunch.notResumedBecause == nil)
            // Nothing restarted the service: the new manager is idle, the task ran until its safety timer.
            #expect(try sim.status() == ServiceStatus(state: .idle, lastError: nil, generation: 0, isRunning: false))
            #expect(sim.events(TaskCompletedEvent.name).first?.params?["at"]?.doubleValue == 928)
        }
    }

    @Test func theAppCanStartTheServiceAtLaunch() async throws {
        try await onThread {
            let sim = try makeIOSSimulation(restartAtLaunch: StartKeepaliveConfig()) { SyncService(runSeconds: 10) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSTerminate.self, .init(reason: .system))
            try sim.advance(950)
            #expect(sim.processes.count == 2)
            #expect(sim.notes.contains("the app's code starts the service at launch"))
            // The new run did its 10 s of work and completed the task it was launched for.
            #expect(sim.processes[1].startedARun)
            let completed = sim.events(TaskCompletedEvent.name).first
            #expect(completed?.params?["success"]?.boolValue == true)
            #expect(completed?.params?["at"]?.doubleValue == 910)
        }
    }

    @Test func strictHostSaysWhyAndReleasesTheKeepalive() async throws {
        try await onThread {
            let sim = try makeIOSSimulation(behaviour: .strict) { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSTerminate.self, .init(reason: .system))
            try sim.advance(950)
            let relaunch = try #require(sim.relaunches.first)
            #expect(relaunch.notResumedBecause != nil)
            // The launched task was completed at once (stopKeepalive), not left to its safety timer.
            #expect(sim.events(TaskCompletedEvent.name).first?.params?["at"]?.doubleValue == 900)
            #expect(try sim.pluginState().pendingRequests.isEmpty)
        }
    }

    @Test func forceQuitHoldsLaunchesUntilTheUserOpensTheApp() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSTerminate.self, .init(reason: .forceQuit))
            try sim.advance(3600)
            #expect(sim.processes.count == 1)
            #expect(sim.events(TaskLaunchedEvent.name).isEmpty)
            try sim.os(OSOpenApp.self, EmptyParams())
            #expect(sim.processes.count == 2 && sim.processes[1].cause == .user)
            try sim.advance(1)
            #expect(sim.events(TaskLaunchedEvent.name).count == 1)
        }
    }
}
