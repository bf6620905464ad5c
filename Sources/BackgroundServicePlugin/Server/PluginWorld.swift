import HostProtocol

/// One freshly started plugin inside its emulated OS: what `plugin/reset` replaces.
final class PluginWorld {
    let events: EventSink
    let clock: PluginClock
    let os: EmulatedOS
    let plugin: BackgroundServicePlugin

    init(options: PluginOptions, infoPlist: InfoPlist, events: EventSink, monotonicNanoseconds: @escaping () -> UInt64,
         dispatcher: Dispatcher? = nil) throws(BGTaskScheduler.RegistrationError) {
        self.events = events
        clock = PluginClock(kind: options.clock, timeScale: options.timeScale, monotonicNanoseconds: monotonicNanoseconds)
        os = EmulatedOS(clock: clock, infoPlist: infoPlist, events: events, faults: options.faults)
        os.runLoop.lateByNanoseconds = options.faults.timerDelayNanoseconds
        // The port is built with the `BSP_FAULT` mutants of its methods (none normally).
        plugin = BackgroundServicePlugin(
            bundleIdentifier: options.bundleIdentifier, os: os, profile: options.profile,
            dispatcher: dispatcher ?? Dispatcher(mode: options.dispatch, seed: options.dispatchSeed),
            mutations: { [faults = options.faults] in PortMutants.mutations(for: faults, in: $0) })
        // register-at-load: both handlers before the app finishes launching.
        try plugin.load()
        os.scheduler.launchFinished = true
    }

    /// The `plugin/state` snapshot.
    func snapshot() -> PluginStateSnapshot {
        let port = plugin.observed
        let registered = os.scheduler.registrations.values
            .map { PluginStateSnapshot.Registration(identifier: $0.identifier, kind: $0.kind) }
            .sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
        return PluginStateSnapshot(
            now: clock.now, clock: clock.kind, profile: plugin.profile, activeTask: port.activeTask,
            pendingCancelInvoke: port.pendingCancelInvokeID,
            safetyTimerDeadline: port.safetyTimerDeadline, config: port.config,
            pendingRequests: os.scheduler.pendingTaskRequests.map(\.info), registered: registered,
            conditions: os.conditions, counters: events.counters,
            cancelInvokePending: port.cancelInvokePending,
            notificationAuthorizationRequests: port.notificationAuthorizationRequests)
    }
}
