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

    init(options: PluginOptions, infoPlist: InfoPlist, events: EventSink, monotonicNanoseconds: @escaping () -> UInt64) throws(BGTaskScheduler.RegistrationError) {
        self.events = events
        clock = PluginClock(kind: options.clock, timeScale: options.timeScale, monotonicNanoseconds: monotonicNanoseconds)
        let ios = options.osMode == .ios ? IOSSystem(seed: options.osSeed) : nil
        os = EmulatedOS(clock: clock, infoPlist: infoPlist, events: events, faults: options.faults, ios: ios)
        os.makePlugin = { os in
            BackgroundServicePlugin(
                bundleIdentifier: options.bundleIdentifier, os: os, profile: options.profile, faults: options.faults)
        }
        // register-at-load: both handlers before the app finishes launching.
        try os.loadApp(os.app, loadsLate: false)
        guard let plugin = os.app.plugin else { throw .init(description: "internal error: the app created no plugin") }
        firstPlugin = plugin
    }

    /// The plugin of the app's current process (of the last one, once it has ended).
    var plugin: BackgroundServicePlugin { os.app.plugin ?? firstPlugin }

    /// The `plugin/state` snapshot. With the app not running (`--os ios`) the app's
    /// side is empty: no task, no pending invoke, no timer, the default config, no
    /// registrations (the next process starts from there).
    func snapshot(cancelInvokeID: RequestID?) -> PluginStateSnapshot {
        let running = os.app.isRunning
        let plugin = self.plugin
        let active: PluginStateSnapshot.ActiveTask? = {
            guard running else { return nil }
            if let t = plugin.currentRefreshTask { return .init(identifier: t.identifier, kind: .refresh, launchedAt: t.launchedAt) }
            if let t = plugin.currentProcessingTask { return .init(identifier: t.identifier, kind: .processing, launchedAt: t.launchedAt) }
            return nil
        }()
        let timer = running ? plugin.safetyTimer.flatMap { $0.isValid ? $0.fireDate : nil } : nil
        let registered = os.scheduler.registrations.values
            .map { PluginStateSnapshot.Registration(identifier: $0.identifier, kind: $0.kind) }
            .sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
        let pendingInvoke = running ? plugin.pendingCancelInvoke : nil
        return PluginStateSnapshot(
            now: clock.now, clock: clock.kind, profile: plugin.profile, activeTask: active,
            pendingCancelInvoke: pendingInvoke.flatMap { $0.id },
            safetyTimerDeadline: timer, config: running ? plugin.config : .defaults,
            pendingRequests: os.store.pendingTaskRequests.map(\.info), registered: running ? registered : [],
            conditions: os.conditions, counters: events.counters,
            cancelInvokePending: pendingInvoke != nil,
            notificationAuthorizationRequests: running ? plugin.notificationAuthorizationRequests : 0,
            ios: os.iosSnapshot)
    }
}

extension BackgroundServicePlugin {
    /// The six stored values, as `plugin/state` reports them.
    var config: PluginConfig {
        PluginConfig(
            iosSafetyTimeoutSecs: safetyTimeout, iosProcessingSafetyTimeoutSecs: processingSafetyTimeoutSecs,
            iosEarliestRefreshBeginMinutes: earliestRefreshBeginMinutes,
            iosEarliestProcessingBeginMinutes: earliestProcessingBeginMinutes,
            iosRequiresExternalPower: requiresExternalPower, iosRequiresNetworkConnectivity: requiresNetworkConnectivity)
    }
}

extension EmulatedOS {
    /// `plugin/state`'s `ios` member (nil under `--os manual`).
    var iosSnapshot: IOSStateSnapshot? {
        guard let ios else { return nil }
        let energy = IOSStateSnapshot.Energy(
            launchesAvailable: ios.energy.launchesAvailable(at: clock.now), capacity: ios.energy.capacity,
            fullAt: ios.energy.fullAt(clock.now))
        let running = runningTask.map {
            IOSStateSnapshot.RunningTask(
                identifier: $0.identifier, budgetDeadline: ios.budgetDeadline, expiredAt: ios.expiredAt,
                watchdogDeadline: ios.watchdogDeadline)
        }
        return IOSStateSnapshot(
            app: appStatus, policy: ios.policy, energy: energy, runningTask: running, nextEventAt: nextDueTime())
    }
}
