import HostProtocol

/// One freshly started plugin inside its emulated OS: what `plugin/reset` replaces.
final class PluginWorld {
    let events: EventSink
    let clock: PluginClock
    let os: EmulatedOS
    let plugin: BackgroundServicePlugin

    init(options: PluginOptions, infoPlist: InfoPlist, events: EventSink, monotonicNanoseconds: @escaping () -> UInt64) throws(BGTaskScheduler.RegistrationError) {
        self.events = events
        clock = PluginClock(kind: options.clock, timeScale: options.timeScale, monotonicNanoseconds: monotonicNanoseconds)
        os = EmulatedOS(clock: clock, infoPlist: infoPlist, events: events, faults: options.faults)
        os.runLoop.lateByNanoseconds = options.faults.timerDelayNanoseconds
        plugin = BackgroundServicePlugin(bundleIdentifier: options.bundleIdentifier, os: os, profile: options.profile, faults: options.faults)
        // register-at-load: both handlers before the app finishes launching.
        try plugin.load()
        os.scheduler.launchFinished = true
    }

    /// The `plugin/state` snapshot.
    func snapshot(cancelInvokeID: RequestID?) -> PluginStateSnapshot {
        let active: PluginStateSnapshot.ActiveTask? = {
            if let t = plugin.currentRefreshTask { return .init(identifier: t.identifier, kind: .refresh, launchedAt: t.launchedAt) }
            if let t = plugin.currentProcessingTask { return .init(identifier: t.identifier, kind: .processing, launchedAt: t.launchedAt) }
            return nil
        }()
        let timer = plugin.safetyTimer.flatMap { $0.isValid ? $0.fireDate : nil }
        let registered = os.scheduler.registrations.values
            .map { PluginStateSnapshot.Registration(identifier: $0.identifier, kind: $0.kind) }
            .sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
        return PluginStateSnapshot(
            now: clock.now, clock: clock.kind, profile: plugin.profile, activeTask: active,
            pendingCancelInvoke: plugin.pendingCancelInvoke.flatMap { $0.id },
            safetyTimerDeadline: timer, config: plugin.config,
            pendingRequests: os.scheduler.pendingTaskRequests.map(\.info), registered: registered,
            conditions: os.conditions, counters: events.counters,
            cancelInvokePending: plugin.pendingCancelInvoke != nil,
            notificationAuthorizationRequests: plugin.notificationAuthorizationRequests)
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
