import HostProtocol

/// The app's states under `--os ios` with the policy's `appStates` (issue 23;
/// `docs/rules.md`, "App states").
///
/// - `os/openApp` brings the app to the `foreground` (starting it if needed); every running
///   task is expired there, cause `foreground` (Apple's engineers, developer forums thread
///   764762, for refresh tasks; processing tasks need the device idle), and no processing
///   request is launched while it stays there (the factor `appInForeground`).
/// - `os/sendToBackground` moves it to the `background`. A background launch's cold start
///   starts it there too.
/// - In the background with no task running, the app is `suspended` `suspendDelaySecs` later
///   (default 5: Apple, "Extending your app's background execution time"). While suspended
///   nothing of the app runs: its timers wait, and one that came due fires at once when it
///   wakes. A background launch wakes it (`background`), and once its tasks end it is
///   suspended again after the same delay.
///
/// Changes between the three are announced by `os/appStateChanged`; a process's start and end
/// by `os/appLaunched` and `os/appTerminated`. With `appStates` off (`--ios-defaults legacy`)
/// none of this happens: a process is only running or not, as before the issue.
extension EmulatedOS {
    /// Whether the policy models the app's states.
    package var modelsAppStates: Bool { ios?.policy.modelsAppStates == true }

    /// `plugin/state`'s `ios.appState`: nil with `appStates` off.
    package var appState: AppState? {
        guard let ios, ios.policy.modelsAppStates else { return nil }
        return app.isRunning ? ios.life.state : .notRunning
    }

    /// Whether the app is suspended: its timers do not fire.
    package var isSuspended: Bool { appState == .suspended }

    /// When a timer fires: at its date, or, for one that came due while the app was
    /// suspended, now (it fires at once on resume).
    package func dueTime(of timer: EmulatedTimer) -> VirtualTime {
        modelsAppStates ? max(timer.fireDate, clock.now) : timer.fireDate
    }

    /// Moves the app to `state`; announces a change with `os/appStateChanged`.
    private func changeAppState(to state: AppState, identifier: String? = nil) {
        guard let ios else { return }
        let before = ios.life.state
        if before == .foreground || state == .foreground { ios.lastUsedAt = clock.now }
        ios.life.state = state
        if state == .background, before != .background { ios.life.idleSince = clock.now }
        if state != .suspended { ios.life.jetsamAt = nil }
        if before != state {
            events.send(AppStateChangedEvent.self, .init(state: state, at: clock.now, identifier: identifier))
        }
    }

    /// A process started: `foreground` when the user opened it, else `background` (no event:
    /// `os/appLaunched` says which).
    package func appStateAtLaunch(_ cause: LaunchCause) {
        guard let ios else { return }
        ios.life = AppLife(at: clock.now)
        ios.life.state = cause == .user ? .foreground : .background
    }

    /// The process ended (no event: `os/appTerminated` says so).
    package func appStateAtTermination() {
        if modelsAppStates, appState == .foreground { ios?.lastUsedAt = clock.now }
        ios?.life.state = .notRunning
    }

    /// `appStates` was switched on: a running app is taken to be in the background, idle from
    /// now (as if the user had opened it and left it before the session). Switched off: a
    /// suspended app runs again (`os/appStateChanged {state: "background"}`), and a use in the
    /// foreground ends.
    package func appStatesSwitched(on: Bool, wasOn: Bool) {
        guard let ios, on != wasOn else { return }
        guard on else {
            // Switched off while suspended: the app runs again (announced, so that a host that
            // froze the app's side on the suspension thaws it), as a process only running or not.
            if ios.life.state == .suspended { changeAppState(to: .background) }
            if ios.life.state == .foreground { ios.lastUsedAt = clock.now }
            return
        }
        ios.life = AppLife(at: clock.now)
        ios.life.state = app.isRunning ? .background : .notRunning
    }

    /// `os/openApp` of a running app under `appStates`: to the foreground; every running task
    /// is expired (cause `foreground`), in launch order.
    package func bringToForeground() throws(RPCError) -> AppStatus {
        guard appState != .foreground else {
            throw RPCError.invalidState("cannot open the app: it is already in the foreground")
        }
        changeAppState(to: .foreground)
        for task in runningTasks where !task.hasExpired { expire(task, cause: .foreground) }
        return appStatus
    }

    /// `os/sendToBackground`: the user leaves the app.
    package func sendToBackground() throws(RPCError) -> AppStateChange {
        guard modelsAppStates else {
            throw RPCError.invalidState(
                "os/sendToBackground needs the policy's appStates (os/setPolicy {\"appStates\": true})")
        }
        guard let state = appState, state == .foreground else {
            throw RPCError.invalidState(
                "cannot send the app to the background: it is \(appState?.rawValue ?? "notRunning"), not foreground")
        }
        changeAppState(to: .background)
        return AppStateChange(state: .background, at: clock.now)
    }

    /// A task is being launched: a suspended app wakes into the background first.
    package func wakeForLaunch(of task: BGTask) {
        guard isSuspended else { return }
        changeAppState(to: .background, identifier: task.identifier)
    }

    /// A task ended: with none left in the background, the app is idle from now.
    package func appStateTaskEnded() {
        guard let ios, modelsAppStates, runningTasks.isEmpty, ios.life.state == .background else { return }
        ios.life.idleSince = clock.now
    }

    /// The app's suspension, when it is due.
    private func addSuspensionDue(to candidates: inout [Due]) {
        guard let ios, appState == .background, runningTasks.isEmpty else { return }
        let delay = VirtualTime.nanoseconds(fromSeconds: ios.policy.effectiveSuspendDelaySecs) ?? 0
        candidates.append(Due(at: ios.life.idleSince.adding(nanoseconds: delay), event: .suspend))
    }

    /// Everything the app's states may do by themselves: a suspension, a jetsam.
    package func addAppStateDueEvents(to candidates: inout [Due]) {
        addSuspensionDue(to: &candidates)
        addJetsamDue(to: &candidates)
    }

    /// The suspension is due: the app is suspended.
    func suspendApp() {
        guard appState == .background, runningTasks.isEmpty else { return }
        changeAppState(to: .suspended)
        drawJetsam()
    }

    /// `os/explain`'s `appInForeground` factor for a processing request, if the app is in the foreground.
    package func foregroundDetail(for request: BGTaskRequest) -> String? {
        guard request.kind == .processing, appState == .foreground else { return nil }
        return "the app is in the foreground; processing tasks are launched only once the user leaves it "
            + "(os/sendToBackground)"
    }
}
