import EmulatedIOS
import HostProtocol

/// The emulated device with the app on it, as freshly started: what `plugin/reset` replaces.
///
/// ``EmulatedOS`` is what outlives the app (clock, pending requests, conditions,
/// policy); its ``AppProcess`` is the app's current process, holding the port
/// (``BackgroundServicePlugin``). Under `--os ios` the process can end and start
/// again; under `--os manual` the first process runs for the whole session.
final class PluginWorld {
    let events: EventSink
    let clock: PluginClock
    let os: EmulatedOS
    private let firstPlugin: BackgroundServicePlugin

    init(
        options: PluginOptions, infoPlist: InfoPlist, events: EventSink, monotonicNanoseconds: @escaping () -> UInt64,
        dispatcher: Dispatcher? = nil, programs: ProgramLibrary? = nil
    ) throws(BGTaskScheduler.RegistrationError) {
        self.events = events
        clock = PluginClock(
            kind: options.clock, timeScale: options.timeScale, monotonicNanoseconds: monotonicNanoseconds)
        let ios = options.osMode == .ios ? IOSSystem(seed: options.osSeed, defaults: options.iosDefaults) : nil
        ios?.eventBound = options.iosAdvanceEventBound
        os = EmulatedOS(
            clock: clock, infoPlist: infoPlist, events: events, faults: options.faults.os, ios: ios,
            policy: options.osMode == .simulator ? SimulatorPolicy() : nil)
        // One pair of queues per session: each process of the app is built on it (a new
        // process starts with both queues empty; see `EmulatedOS.terminate`).
        let dispatcher = dispatcher ?? Dispatcher(mode: options.dispatch, seed: options.dispatchSeed)
        os.makePlugin = { os in
            // The port is built with the `BSP_FAULT` mutants of its methods (none normally).
            BackgroundServicePlugin(
                bundleIdentifier: options.bundleIdentifier, os: os, profile: options.profile, dispatcher: dispatcher,
                mutations: { [faults = options.faults] in PortMutants.mutations(for: faults, in: $0) },
                library: programs)
        }
        // register-at-load: both handlers before the app finishes launching.
        try os.loadApp(os.app, loadsLate: false)
        guard let plugin = os.app.plugin as? BackgroundServicePlugin else {
            throw .init(description: "internal error: the app created no plugin")
        }
        firstPlugin = plugin
    }

    /// The plugin of the app's current process (of the last one, once it has ended).
    var plugin: BackgroundServicePlugin { os.app.plugin as? BackgroundServicePlugin ?? firstPlugin }

    /// The `plugin/state` snapshot. With the app not running (`--os ios`) the app's
    /// side is empty: no task, no pending invoke, no timer, the default config, no
    /// registrations (the next process starts from there).
    func snapshot() -> PluginStateSnapshot {
        let running = os.app.isRunning
        let port = plugin.observed
        let registered = os.scheduler.registrations.values
            .map { PluginStateSnapshot.Registration(identifier: $0.identifier, kind: $0.kind) }
            .sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
        return PluginStateSnapshot(
            now: clock.now, clock: clock.kind, profile: plugin.profile, activeTask: running ? port.activeTask : nil,
            pendingCancelInvoke: running ? port.pendingCancelInvokeID : nil,
            safetyTimerDeadline: running ? port.safetyTimerDeadline : nil, config: running ? port.config : .defaults,
            pendingRequests: os.store.pendingTaskRequests.map(\.info), registered: running ? registered : [],
            conditions: os.conditions, counters: events.counters,
            cancelInvokePending: running && port.cancelInvokePending,
            notificationAuthorizationRequests: running ? port.notificationAuthorizationRequests : 0,
            ios: os.iosSnapshot)
    }
}
