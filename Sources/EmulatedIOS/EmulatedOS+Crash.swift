import HostProtocol

/// Crashes under `--os ios`: a misuse of `BGTaskScheduler` (``SchedulerMisuse``: a late or
/// second registration, a launch with no handler) is an uncaught
/// `NSInternalInconsistencyException` on a device, and an uncaught exception ends the process.
///
/// Each misuse is reported (`os/violation` with its rule, counted in `violations`). With the
/// policy's `crashOnMisuse` (the default) the process then ends as a crash would:
/// `os/appTerminated {reason: "crash", exception, message}` (Apple's words), the running task
/// and the launch in progress lost, the held invokes answered `terminated`, `crashes` counted
/// in `plugin/state`. With `crashOnMisuse` false the app lives on (today's "report and live
/// on": a registration that failed leaves the process without the handler).
extension EmulatedOS {
    /// Whether a misuse ends the process (`--os ios` with `crashOnMisuse`).
    package var crashesOnMisuse: Bool { ios?.policy.crashOnMisuse ?? false }

    /// The app's `load()` threw while registering in `process` (`why`: what made it run then).
    /// Reports it; crashes the app, or (``crashesOnMisuse`` off) records it and lets the app live on.
    package func registrationFailed(
        _ error: BGTaskScheduler.RegistrationError, in process: AppProcess, why: String
    ) {
        if process.phase == .launching { process.finishLaunching() }
        process.registrationError = error.description
        let rule = error.misuse?.rule ?? SchedulerMisuse.late("").rule
        events.violation(rule: rule, detail: "\(SchedulerMisuse.exception): \(error.description) (\(why))")
        guard let misuse = error.misuse, crashesOnMisuse else { return }
        crash(misuse)
    }

    /// The OS is about to launch `identifier` and the app has no launch handler for it: under
    /// ``crashesOnMisuse`` the launch is lost (the request is taken) and the app crashes
    /// (`No launch handler registered for task with identifier …`). Returns whether it crashed.
    package func launchWithoutHandler(_ identifier: String) -> Bool {
        guard crashesOnMisuse, app.isRunning, scheduler.registrations[identifier] == nil else { return false }
        let misuse = SchedulerMisuse.noHandler(identifier)
        _ = store.takeForLaunch(identifier)
        events.violation(
            rule: misuse.rule,
            detail: "\(SchedulerMisuse.exception): \(misuse.message) (the system launched \(identifier); "
                + "\(registeredList))")
        crash(misuse)
        return true
    }

    /// A cold start for `identifier` ended in a crash: the launch it was for is lost.
    package func loseLaunchAfterCrash(of identifier: String) -> Bool {
        guard !app.isRunning, ios?.lastTermination?.reason == .crash, app.cause == .backgroundTask else {
            return false
        }
        _ = store.takeForLaunch(identifier)
        return true
    }

    /// Ends the process as an uncaught exception does.
    private func crash(_ misuse: SchedulerMisuse) {
        events.counters.crashes = (events.counters.crashes ?? 0) + 1
        terminateApp(reason: .crash, exception: SchedulerMisuse.exception, message: misuse.message)
    }

    /// `os/explain`'s `launchCrashes`: launching `request` now would crash the app, so its
    /// launch handler will never run. Nil when it would not (or without `crashOnMisuse`).
    package func crashForecast(_ request: BGTaskRequest) -> LaunchReason? {
        guard let ios, crashesOnMisuse else { return nil }
        let id = request.identifier
        if app.isRunning {
            guard scheduler.registrations[id] == nil else { return nil }
            let why = app.registrationError.map { "; \($0)" } ?? ""
            return LaunchReason(
                factor: .launchCrashes,
                detail: "launching it crashes the app: the running app has no launch handler for \(id)\(why) "
                    + "(\(SchedulerMisuse.exception): \(SchedulerMisuse.noHandler(id).message))")
        }
        guard makePlugin != nil, let cause = ios.lateLoadCause else { return nil }
        return LaunchReason(
            factor: .launchCrashes,
            detail: "launching it crashes the app: a new process loads the plugin after didFinishLaunching "
                + "(\(cause)), so its first registration raises \(SchedulerMisuse.exception): "
                + SchedulerMisuse.late(id).message)
    }
}

extension IOSSystem {
    /// Why a new process loads the plugin after `didFinishLaunching`, if it does: the policy
    /// member, `multipleScenes` (the cause: tao's scene-based start) before `pluginLoadsLate`
    /// (the bare effect, kept for compatibility).
    package var lateLoadCause: String? {
        if policy.multipleScenes { return "multipleScenes" }
        return policy.pluginLoadsLate ? "pluginLoadsLate" : nil
    }

    /// The violation's words for a registration made late by ``lateLoadCause``.
    var lateLoadWhy: String {
        guard policy.multipleScenes else { return "the plugin was loaded after didFinishLaunching" }
        return "the plugin was loaded after didFinishLaunching: with multiple scenes the first webview, and "
            + "Tauri's plugin loading with it, comes when a scene connects (multipleScenes)"
    }
}
