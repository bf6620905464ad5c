import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// `plugin-host week`'s days: one user's days under `--os ios` with the default policy,
/// the same every day, so that what changes from day to day is the OS's own choices.
///
/// The app's code starts the service with the Rust side's defaults whenever the app opens
/// and at every launch of a new process (as a Tauri app's setup would); each sync takes
/// ``syncSeconds``. A day is 24 hours from the moment the phone comes off its charger:
///
/// - 00:00 off the charger, in use; the user opens the app and uses it for 10 minutes,
///   then leaves it (`os/sendToBackground`, with app states).
/// - Five times, 170 minutes apart from the last, the user picks up the phone for 10
///   minutes (`deviceInUse`); the third time they open the app (a task running then is
///   expired, with app states: cause `foreground`) and leave it again.
/// - 16:00 the phone goes on its charger, idle, for the night (8 hours).
///
/// Nothing else is scripted: launches, budgets, expirations and terminations are iOS's.
struct WeekScenario {
    /// Days played.
    var days = 7
    /// Whether the plugin runs under `--ios-defaults legacy` (`--legacy`).
    var legacy = false
    /// Whether the policy has `appStates` on (switched on first under ``legacy``).
    var appStates = true
    /// Whether the policy has `usageScheduling` on (switched on first under ``legacy``, with
    /// `appStates`: without them a running app cannot be opened again, so the user's openings
    /// would not count).
    var usage = true

    /// How long every sync takes: within the 28-second safety timer.
    static let syncSeconds: Double = 20
    /// The service every start gets.
    static let factory: @Sendable () -> any BackgroundService = { SyncService(runSeconds: syncSeconds) }
    /// Seconds in a day.
    static let day: Double = 86_400

    /// The Rust side's defaults.
    static let config = StartKeepaliveConfig()

    /// Plays the days on `sim` (a plugin under `--os ios`, started with
    /// `appStartsServiceAtLaunch: config`).
    func play(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        if legacy, appStates || usage {
            var update = IOSPolicy.Update()
            // Use needs the app's states: without them a running app cannot be opened again.
            update.appStates = .init(appStates: true)
            if usage { update.usage = .init(usageScheduling: true) }
            _ = try sim.os(OSSetPolicy.self, update)
        }
        for _ in 0..<days { try playDay(on: sim) }
    }

    private func playDay(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        func wait(minutes: Double) throws(SystemSimulation.SimulationError) {
            try sim.advance(by: VirtualTime(seconds: minutes * 60)!)
        }
        func inUse(_ on: Bool) throws(SystemSimulation.SimulationError) {
            try conditions(.init(deviceInUse: on), on: sim)
        }
        try conditions(.init(base: .init(externalPower: false), deviceInUse: true), on: sim)
        try openApp(on: sim)
        try wait(minutes: 10)
        try leaveApp(on: sim)
        try inUse(false)
        for pickUp in 1...5 {
            try wait(minutes: 170)
            try inUse(true)
            if pickUp == 3 { try openApp(on: sim) }
            try wait(minutes: 10)
            if pickUp == 3 { try leaveApp(on: sim) }
            try inUse(false)
        }
        try wait(minutes: 16 * 60 - 10 - 5 * 180)
        try conditions(.init(base: .init(externalPower: true), deviceInUse: false), on: sim)
        try wait(minutes: 8 * 60)
    }

    /// What iOS says of each request at the end (`os/explain`), in words.
    static func explanations(on sim: SystemSimulation) -> [(kind: TaskKind, words: String)] {
        [(TaskKind.refresh, sim.refreshIdentifier), (.processing, sim.processingIdentifier)].map { kind, identifier in
            let e = try? sim.os(OSExplain.self, .init(identifier: identifier)).get()
            return (kind, IOSDemoScenario.words(e))
        }
    }

    /// `os/setConditions` with the members only `--os ios` has.
    private func conditions(
        _ params: OSSetConditions.IOSParams, on sim: SystemSimulation
    ) throws(SystemSimulation.SimulationError) {
        _ = try sim.os(method: OSSetConditions.name, params: params.json)
    }

    /// The user opens the app (refused while it runs with app states off: nothing to do
    /// then) and its code starts the service (refused while it runs: nothing to do either).
    private func openApp(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        _ = try sim.os(OSOpenApp.self, EmptyParams())
        try sim.host { manager in try? await manager.start(Self.config) }
    }

    /// The user leaves the app (with app states; without them there is no such move).
    private func leaveApp(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        guard appStates || usage else { return }
        _ = try sim.os(OSSendToBackground.self, EmptyParams())
    }
}
