import HostProtocol
import HostSimulation
import PluginHost
import RustSide

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
///    and then (under the seed profile) what was due launches into an app whose
///    service is not running.
/// 4. A cold start: iOS reclaims the app; at the next planned launch it starts a new
///    process in the background for the task: a fresh Rust side, its service manager
///    idle (unless the app's code starts the service at launch).
/// 5. Two tasks at once: the one-at-a-time limit the first four pinned (the seed's own
///    assumption) is lifted, as on a device, and iOS launches the refresh and the
///    processing task together. Under the seed profile, completing the refresh task lets
///    go of the processing task (`cleanup()` sets both references to nil): iOS expires it
///    at its budget, nothing completes it, and the watchdog kills the app, so the
///    verdict says a rule broke. Under `--profile strict` both are completed.
/// 6. The app's states (not with `--legacy`): the five parts above switch the app's states and
///    scheduling driven by use off (the model they were written for); the sixth switches the
///    states on again and shows the app opened, left, suspended, woken by a launch, and a task
///    expired by the user opening the app (``playAppStates(on:)``).
///
/// That is the seed profile's day; under `--profile strict` the opened app releases
/// the keepalive, so nothing is left to launch. The notes that say what happened are
/// read from the timeline (``DemoStory``), not assumed.
struct IOSDemoScenario {
    /// `iosSafetyTimeoutSecs`.
    var safetyTimeoutSeconds: Double = 28
    /// Whether the app's code starts the service at every launch.
    var restartAtLaunch = false
    /// Whether the day ends with the app's states (the default; not with `--legacy`):
    /// ``playAppStates(on:)``.
    var appStates = true

    /// Every sync in this day would take an hour: iOS decides when they end.
    static let syncSeconds: Double = 3600
    /// The service every start gets.
    static let factory: @Sendable () -> any BackgroundService = { SyncService(runSeconds: syncSeconds) }

    var config: StartKeepaliveConfig {
        var c = StartKeepaliveConfig()
        c.iosSafetyTimeoutSecs = safetyTimeoutSeconds
        return c
    }

    /// Plays the day on `sim` (a plugin under `--os ios`); the notes on what happened are
    /// read from its timeline and from what iOS answers.
    func play(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        var story = DemoStory(sim)
        func start(_ what: String, _ config: StartKeepaliveConfig) throws(SystemSimulation.SimulationError) {
            sim.note(what)
            try sim.host { manager in
                do { try await manager.start(config) } catch { sim.note("start failed: \(error)") }
            }
        }
        func wait(_ seconds: Double) throws(SystemSimulation.SimulationError) {
            try sim.advance(by: VirtualTime(seconds: seconds)!)
        }
        func explain(_ identifier: String) throws(SystemSimulation.SimulationError) -> LaunchExplanation? {
            try? sim.os(OSExplain.self, .init(identifier: identifier)).get()
        }

        sim.note(
            "iOS decides on its own here (--os ios); launches come at their earliest date (no random delay today), "
                + "and until the last part the app is only running or not (appStates and usageScheduling off)")
        var policy = IOSPolicy.Update(
            refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0, refreshEarlyExpiryChance: 1,
            // These four happenings are one task at a time (the seed's assumption).
            maxConcurrentTasks: .some(1))
        // The five happenings are the model before issue 23 (`--ios-defaults legacy`): no
        // suspension between them, launches that ignore use.
        policy.appStates = .init(appStates: false)
        policy.usage = .init(usageScheduling: false)
        try sim.os(OSSetPolicy.self, policy)

        // 1. A refresh expired early.
        try start("The app starts the sync service (run 1: the sync would take an hour)", config)
        sim.note(
            "This refresh launch draws an early budget: field reports see 2 to 5 s (one launch in five by default)")
        story.restart()
        try wait(900 + 10)
        sim.note(story.outcome(of: sim.refreshIdentifier))
        try sim.os(OSSetPolicy.self, .init(refreshEarlyExpiryChance: 0))

        // 2. A processing task cut off when power is removed.
        var overnight = config
        overnight.iosEarliestRefreshBeginMinutes = 600
        overnight.iosRequiresExternalPower = true
        try wait(50)
        try start("The app starts the sync service (run 2: refresh in 10 h, processing in 15 min on power)", overnight)
        sim.note("The phone is put on its charger")
        story.restart()
        try sim.os(OSSetConditions.self, .init(externalPower: true))
        try wait(900 + 300)
        if story.isRunning(sim.processingIdentifier), let launched = story.launchedAt(sim.processingIdentifier) {
            let into = DemoStory.seconds(from: launched, to: sim.now)
            sim.note("The phone is unplugged \(into) into the processing task")
        } else {
            sim.note("The phone is unplugged (the processing task is not running)")
        }
        try sim.os(OSSetConditions.self, .init(externalPower: false))
        try wait(10)
        sim.note(story.outcome(of: sim.processingIdentifier))

        // 3. A force-quit.
        try start("The app starts the sync service (run 3)", config)
        try wait(60)
        sim.note("The user swipes the app away in the app switcher (force-quit): its Rust side dies with it")
        try sim.os(OSTerminate.self, .init(reason: .forceQuit))
        story.restart()
        try wait(3600)
        let ran = story.launched
        let why = try explain(sim.refreshIdentifier)
        let hour =
            ran.isEmpty ? "An hour later nothing has run" : "In that hour iOS launched \(ran.joined(separator: ", "))"
        sim.note(hour + "; iOS on the refresh request: " + Self.words(why))
        sim.note(
            restartAtLaunch
                ? "The user opens the app: a new process, whose code starts the service again (new requests)"
                : "The user opens the app: a new process, whose code does not start the service")
        story.restart()
        try sim.os(OSOpenApp.self, EmptyParams())
        try wait(safetyTimeoutSeconds + 10)
        sim.note(afterOpening(story, sim))

        // 4. A cold start.
        sim.note("iOS reclaims the app's memory (terminated by the system)")
        try sim.os(OSTerminate.self, .init(reason: .system))
        sim.note("iOS on the refresh request: " + Self.words(try explain(sim.refreshIdentifier)))
        let processes = sim.processes.count
        story.restart()
        try wait(900 + safetyTimeoutSeconds + 10)
        sim.note(coldStart(story, sim, processesBefore: processes))

        // 5. Two tasks at once.
        sim.note("iOS may run a refresh and a processing task at the same time, as on a device (no limit from now)")
        try sim.os(OSSetPolicy.self, .init(maxConcurrentTasks: .some(nil)))
        if sim.currentProcess.lifetime.isEnded {
            sim.note("The user opens the app")
            try sim.os(OSOpenApp.self, EmptyParams())
        }
        try start("The app starts the sync service (both requests due in 15 min)", config)
        story.restart()
        try wait(900 + safetyTimeoutSeconds + 10)
        sim.note(twoTasks(story, sim))
        try wait(600)
        sim.note(letGo(story, sim))

        // 6. The app's states (the default; `--legacy` leaves the part out).
        if appStates { try playAppStates(on: sim) }
    }

    /// Which tasks ran together, and what became of the first one to end.
    private func twoTasks(_ story: DemoStory, _ sim: SystemSimulation) -> String {
        let launched = story.launched
        guard launched.count >= 2 else {
            return "iOS launched " + (launched.isEmpty ? "nothing" : launched.joined(separator: ", "))
        }
        return "iOS launched both tasks at once; " + story.clause(sim.refreshIdentifier)
    }

    /// Whether the processing task was let go of: the watchdog's kill, or its completion.
    private func letGo(_ story: DemoStory, _ sim: SystemSimulation) -> String {
        if let end = story.termination, end.reason == .watchdog {
            let which = end.identifier.map(story.name) ?? "a task"
            return "Nothing completed \(which) after the refresh task's cleanup() set both task references to nil: "
                + "iOS expired it at its budget, and the watchdog killed the app"
        }
        return DemoStory.sentence(story.clause(sim.processingIdentifier))
    }

    /// What the opened app's first seconds showed: what launched, and what became of it.
    private func afterOpening(_ story: DemoStory, _ sim: SystemSimulation) -> String {
        let launched = story.launched
        guard let first = launched.first else {
            return "Nothing launched after the app opened"
                + (sim.currentProcess.serviceRunning ? "; the service runs in the new process" : "")
        }
        let running = sim.currentProcess.startedARun ? "the service was started again" : "no service running"
        let delay = story.launchedAt(first).map { DemoStory.seconds(from: story.since, to: $0) } ?? "?"
        let when = delay == "0 s" ? "at once" : "\(delay) after the app opened"
        return "What was due launched \(when) (\(launched.joined(separator: ", "))), with \(running): "
            + story.clause(first)
    }

    /// Whether iOS started a new process for a task after the system termination, and
    /// what became of that task.
    private func coldStart(_ story: DemoStory, _ sim: SystemSimulation, processesBefore: Int) -> String {
        guard sim.processes.count > processesBefore, let process = sim.processes.last else {
            return "No background launch came, so no new process started"
        }
        guard let identifier = story.launched.first else {
            return "App process \(process.number) started (\(process.cause.rawValue)), and no task launched in it"
        }
        let service =
            process.startedARun
            ? "the app's code started the service at launch, and the new run met the task"
            : "nothing started the service in it"
        return "iOS started app process \(process.number) in the background for \(story.name(identifier)): "
            + "\(service); " + story.clause(identifier)
    }

    /// What `os/explain` said, in words.
    static func words(_ explanation: LaunchExplanation?) -> String {
        guard let e = explanation else { return "no answer" }
        switch e.status {
        case .notPending: return "not pending, so there is nothing to launch"
        case .running: return "its task is running"
        case .pending:
            let reasons = e.reasons.map(\.factor.rawValue).joined(separator: ", ")
            return "pending" + (reasons.isEmpty ? ", and it can launch now" : ", not launched because of \(reasons)")
        }
    }
}
