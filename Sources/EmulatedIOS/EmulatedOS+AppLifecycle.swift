import HostProtocol

/// The app's lifecycle under `--os ios`: termination (system, force-quit,
/// watchdog), the user opening the app, and cold starts into the background.
///
/// A termination ends the process: the running task ends uncompleted, the invokes
/// the app held are answered `terminated`, its timers die (no event: nothing
/// invalidates them, they are gone), its registrations and plugin state are gone.
/// The system keeps the pending requests; after a force-quit it launches nothing in
/// the background until the user opens the app. A later start is a new process:
/// `os/appLaunched` first, then the plugin's `load` runs again on fresh state.
extension EmulatedOS {
    /// Ends the running process (the caller checked that it runs). Every running task
    /// ends with it; `os/appTerminated` names `task` (the watchdog's) or the first running;
    /// a `crash` carries its `exception` and `message` (`EmulatedOS+Crash.swift`).
    package func terminateApp(
        reason: TerminationReason, for killed: BGTask? = nil, exception: String? = nil, message: String? = nil
    ) {
        guard let ios, app.isRunning else { return }
        let process = app
        let task = killed ?? runningTask
        let ended = runningTasks
        runningTasks.removeAll()
        for each in ended { ios.taskEnded(each) }
        process.end()
        appStateAtTermination()
        ios.lastTermination = AppStatus.Termination(reason: reason, at: clock.now)
        if reason == .forceQuit { ios.forceQuit = true }
        events.send(
            AppTerminatedEvent.self,
            .init(
                reason: reason, at: clock.now, identifier: task?.identifier, exception: exception, message: message))
        failHeldInvokes(of: process)
    }

    /// `os/terminate`: `system` needs a running app; `forceQuit` of an app that is not
    /// running marks it force-quit (it is still in the app switcher).
    package func terminate(_ params: OSTerminate.Params) throws(RPCError) -> AppStatus {
        if app.isRunning {
            terminateApp(reason: params.reason)
        } else if params.reason == .forceQuit {
            ios?.forceQuit = true
        } else {
            throw RPCError.invalidState("cannot terminate the app: it is not running")
        }
        return appStatus
    }

    /// `os/openApp`: the user opens the app; a new process starts and the force-quit mark is cleared.
    /// Under `appStates` a running app is brought to the foreground (`EmulatedOS+AppStates.swift`).
    package func openApp() throws(RPCError) -> AppStatus {
        if app.isRunning, modelsAppStates { return try bringToForeground() }
        guard !app.isRunning else { throw RPCError.invalidState("cannot open the app: it is already running") }
        ios?.forceQuit = false
        ios?.lastUsedAt = clock.now
        startProcess(cause: .user, identifier: nil)
        return appStatus
    }

    /// The system starts the app into the background to run `identifier`.
    package func coldStart(for identifier: String) {
        startProcess(cause: .backgroundTask, identifier: identifier)
    }

    /// Starts a new process: `os/appLaunched`, then the plugin is created and loaded.
    /// A registration that fails (the plugin loading after `didFinishLaunching`) is
    /// Apple's `NSInternalInconsistencyException`: a violation
    /// (`ios.register-before-launch-end`), then a crash or, without `crashOnMisuse`, a
    /// process that runs without the handler (`EmulatedOS+Crash.swift`).
    private func startProcess(cause: LaunchCause, identifier: String?) {
        guard let ios else { return }
        let process = replaceProcess(cause: cause)
        ios.launches += 1
        appStateAtLaunch(cause)
        events.send(AppLaunchedEvent.self, .init(cause: cause, at: clock.now, identifier: identifier))
        do {
            try loadApp(process, loadsLate: ios.lateLoadCause != nil)
        } catch {
            registrationFailed(error, in: process, why: ios.lateLoadWhy)
        }
    }

    /// The app's process as `os/terminate`, `os/openApp` and `plugin/state` show it.
    package var appStatus: AppStatus {
        AppStatus(
            phase: app.phase, launchCause: app.cause, launchedAt: app.launchedAt, forceQuit: ios?.forceQuit ?? false,
            registrationError: app.registrationError, lastTermination: ios?.lastTermination,
            launches: ios?.launches ?? 1)
    }
}
