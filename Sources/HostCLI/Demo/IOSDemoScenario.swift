import HostProtocol
import PluginHost

/// The second scripted day, under `--os ios`: the emulated iOS acts on its own.
///
/// 1. A refresh expired early: iOS launches the refresh task at its earliest date
///    and gives it a budget of a few seconds; the expiration handler resolves the
///    cancel listener and the Rust side stops the service.
/// 2. A processing task cut off when power is removed: a processing request that
///    needs external power launches while the phone charges, and iOS expires it the
///    moment it is unplugged.
/// 3. A force-quit: the user swipes the app away; its Rust side dies with it, the
///    requests stay pending but iOS launches nothing until the user opens the app,
///    and then what was due launches into an app whose service is not running.
/// 4. A cold start: iOS reclaims the app; at the next planned launch it starts a new
///    process in the background for the task: a fresh Rust side, its service manager
///    idle (unless the app's code starts the service at launch).
struct IOSDemoScenario {
    /// `iosSafetyTimeoutSecs`.
    var safetyTimeoutSeconds: Double = 28
    /// Whether the app's code starts the service at every launch.
    var restartAtLaunch = false

    /// Every sync in this day would take an hour: iOS decides when they end.
    static let syncSeconds: Double = 3600
    /// The service every start gets.
    static let factory: @Sendable () -> any BackgroundService = { SyncService(runSeconds: syncSeconds) }

    var config: StartKeepaliveConfig {
        var c = StartKeepaliveConfig()
        c.iosSafetyTimeoutSecs = safetyTimeoutSeconds
        return c
    }

    /// Plays the day on `sim` (a plugin under `--os ios`).
    func play(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        func start(_ what: String, _ config: StartKeepaliveConfig) throws(SystemSimulation.SimulationError) {
            sim.note(what)
            try sim.host { manager in
                do { try await manager.start(config) } catch { sim.note("start failed: \(error)") }
            }
        }
        func wait(_ seconds: Double) throws(SystemSimulation.SimulationError) {
            try sim.advance(by: VirtualTime(seconds: seconds)!)
        }
        func explain(_ identifier: String) throws(SystemSimulation.SimulationError) {
            _ = try sim.os(OSExplain.self, .init(identifier: identifier))
        }

        sim.note("iOS decides on its own here (--os ios); launches come at their earliest date (no random delay today)")
        try sim.os(OSSetPolicy.self, .init(
            seconds: ["refreshDelayMaxSecs": 0, "processingDelayMaxSecs": 0], refreshEarlyExpiryChance: 1))

        // 1. A refresh expired early.
        try start("The app starts the sync service (run 1: the sync would take an hour)", config)
        sim.note(
            "This refresh launch draws an early budget: field reports see 2 to 5 s (one launch in five by default)")
        try wait(900 + 10)
        sim.note(
            "iOS expired the refresh task after a few seconds: the listener resolved and the Rust side stopped the service"
        )
        try sim.os(OSSetPolicy.self, .init(refreshEarlyExpiryChance: 0))

        // 2. A processing task cut off when power is removed.
        var overnight = config
        overnight.iosEarliestRefreshBeginMinutes = 600
        overnight.iosRequiresExternalPower = true
        try wait(50)
        try start("The app starts the sync service (run 2: refresh in 10 h, processing in 15 min on power)", overnight)
        sim.note("The phone is put on its charger")
        try sim.os(OSSetConditions.self, .init(externalPower: true))
        try wait(900 + 300)
        sim.note("The phone is unplugged five minutes into the processing task")
        try sim.os(OSSetConditions.self, .init(externalPower: false))
        try wait(10)

        // 3. A force-quit.
        try start("The app starts the sync service (run 3)", config)
        try wait(60)
        sim.note("The user swipes the app away in the app switcher (force-quit): its Rust side dies with it")
        try sim.os(OSTerminate.self, .init(reason: .forceQuit))
        try wait(3600)
        sim.note("An hour later nothing has run: iOS says why")
        try explain(sim.refreshIdentifier)
        sim.note(restartAtLaunch
            ? "The user opens the app: a new process, whose code starts the service again (new requests)"
            : "The user opens the app: a new process; what was due launches at once, with no service running")
        try sim.os(OSOpenApp.self, EmptyParams())
        try wait(safetyTimeoutSeconds + 10)

        // 4. A cold start.
        sim.note("iOS reclaims the app's memory (terminated by the system); the requests stay pending")
        try sim.os(OSTerminate.self, .init(reason: .system))
        try explain(sim.refreshIdentifier)
        try wait(900 + safetyTimeoutSeconds + 10)
        sim.note(restartAtLaunch
            ? "The app's code started the service at launch: the new run met the task it was launched for"
            : "Nothing started the service in the new process: the task waited for its safety timer")
    }
}
