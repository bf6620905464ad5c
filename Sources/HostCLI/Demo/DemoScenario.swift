import HostProtocol
import HostSimulation
import PluginHost
import RustSide
import Synchronization

/// The scripted day the demo plays: the main job on the built-in defaults.
///
/// With the default settings:
/// 1. The app starts the sync service; iOS launches the refresh task; the sync
///    finishes in time, so the Rust side completes the task (rescheduled).
/// 2. A second run overruns: with auto-launch on, the refresh task launches at its
///    earliest begin date and the safety timer fires 28 s later, resolving the
///    cancel listener; the Rust side stops the service.
/// 3. A third run: iOS launches the processing task, then expires it; the
///    listener resolves and the service is stopped.
/// 4. A fourth run is stopped by the app.
///
/// Other settings give other days: the notes that say what happened are read from the
/// timeline (``DemoStory``), not assumed.
public struct DemoScenario: Sendable {
    /// Scenario timings and profile.
    public struct Settings: Sendable {
        /// Plugin profile and host behaviour.
        public var profile: Profile = .seed
        /// How long the first sync takes (finishes in time).
        public var workSeconds: Double = 20
        /// How long the overrunning syncs take.
        public var overrunSeconds: Double = 3600
        /// `iosSafetyTimeoutSecs`.
        public var safetyTimeoutSeconds: Double = 28
        /// `iosEarliestRefreshBeginMinutes` and `...Processing...`.
        public var earliestBeginMinutes: Double = 15
        /// How long after launch the processing task is expired.
        public var processingExpiresAfterSeconds: Double = 300

        /// The defaults.
        public init() {}
    }

    /// The timings and profile.
    public let settings: Settings

    /// Creates the scenario.
    public init(settings: Settings) {
        self.settings = settings
    }

    /// The services the four starts get, in order.
    public func makeFactory() -> @Sendable () -> any BackgroundService {
        let runs = [settings.workSeconds, settings.overrunSeconds, settings.overrunSeconds, settings.overrunSeconds]
        let counter = Mutex(0)
        return {
            let n = counter.withLock { c in
                defer { c += 1 }
                return c
            }
            return SyncService(runSeconds: runs[min(n, runs.count - 1)])
        }
    }

    var config: StartKeepaliveConfig {
        var c = StartKeepaliveConfig()
        c.iosSafetyTimeoutSecs = settings.safetyTimeoutSeconds
        c.iosEarliestRefreshBeginMinutes = settings.earliestBeginMinutes
        c.iosEarliestProcessingBeginMinutes = settings.earliestBeginMinutes
        return c
    }

    /// Plays the day on `sim`; the notes on what happened are read from its timeline.
    public func play(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        let config = self.config
        var story = DemoStory(sim)
        func start(_ what: String) throws(SystemSimulation.SimulationError) {
            sim.note(what)
            try sim.host { manager in
                do { try await manager.start(config) } catch { sim.note("start failed: \(error)") }
            }
        }
        func wait(_ seconds: Double) throws(SystemSimulation.SimulationError) {
            try sim.advance(by: VirtualTime(seconds: seconds)!)
        }

        // 1. A run that finishes in time (with the defaults).
        try start("The app starts the sync service (run 1: the sync takes \(format(settings.workSeconds)))")
        try wait(5)
        sim.note("iOS launches the refresh task (like the debugger's simulate-launch)")
        story.restart()
        try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
        try wait(max(settings.workSeconds - 5, 0) + 10)
        sim.note(story.outcome(of: sim.refreshIdentifier))

        // 2. A run that overruns (with the defaults); the safety timer cancels it.
        try wait(30)
        try start(
            "The app starts the sync service again (run 2: this sync would take \(format(settings.overrunSeconds)))")
        sim.note("Background App Refresh lets the emulated OS launch requests when they are due (autoLaunch on)")
        story.restart()
        try sim.os(OSSetConditions.self, .init(autoLaunch: true))
        try wait(settings.earliestBeginMinutes * 60 + settings.safetyTimeoutSeconds + 20)
        sim.note(story.outcome(of: sim.refreshIdentifier))
        try sim.os(OSSetConditions.self, .init(autoLaunch: false))

        // 3. A processing task, expired by the OS.
        try wait(30)
        try start("The app starts the sync service (run 3)")
        try wait(30)
        sim.note("iOS launches the processing task (no safety timer: iosProcessingSafetyTimeoutSecs is 0)")
        story.restart()
        try sim.os(OSLaunch.self, .init(identifier: sim.processingIdentifier))
        try wait(settings.processingExpiresAfterSeconds)
        if story.isRunning(sim.processingIdentifier) {
            sim.note("The user picks up the phone: iOS expires the processing task")
            try sim.os(OSExpire.self, .init(identifier: sim.processingIdentifier))
        } else {
            sim.note("The user picks up the phone; the processing task is not running, so iOS has nothing to expire")
        }
        try wait(10)
        sim.note(story.outcome(of: sim.processingIdentifier))

        // 4. A run stopped by the app.
        try wait(30)
        try start("The app starts the sync service (run 4)")
        try wait(60)
        sim.note("The app stops the service")
        try sim.host { manager in
            do { try await manager.stop() } catch { sim.note("stop failed: \(error)") }
        }
        try wait(10)
    }

    private func format(_ seconds: Double) -> String {
        seconds >= 120 && seconds.truncatingRemainder(dividingBy: 60) == 0
            ? "\(Int(seconds / 60)) min" : "\(VirtualTime(seconds: seconds)!.decimalSeconds) s"
    }
}
