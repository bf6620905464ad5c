import HostProtocol

/// The watchdog under `--os ios`: a task not completed within `watchdogGraceSecs`
/// (default 5) after its expiration handler ran gets the app killed (Apple: a task
/// not completed promptly after its expiration handler runs gets the app killed).
///
/// The kill is a violation the app caused (`os/violation`, rule `ios.watchdog`,
/// counted in `violations` and `watchdogKills`), then `os/appTerminated` with
/// reason `watchdog`, then the invokes the app held are answered `terminated`. The
/// watchdog is armed by ``IOSSystem/expirationHandlerReturned(in:)``.
extension EmulatedOS {
    /// A task's grace period is over and it is still not completed: kill the app. (With
    /// two tasks running, the one whose grace ended first; launch order at equal times.)
    package func watchdogFires() {
        guard let ios, let due = ios.earliest(\.watchdogDeadline, among: runningTasks) else { return }
        let task = due.task
        ios.running[task.serial]?.watchdogDeadline = nil
        guard app.isRunning else { return }
        let expiredAt = ios.running[task.serial]?.expiredAt?.decimalSeconds ?? clock.now.decimalSeconds
        events.counters.watchdogKills = (events.counters.watchdogKills ?? 0) + 1
        events.violation(
            rule: "ios.watchdog",
            detail: "\(task.identifier) was not completed within "
                + "\(IOSPolicy.secondsJSON(ios.policy.watchdogGraceSecs)) s "
                + "after its expiration handler ran at \(expiredAt); the system killed the app "
                + "(call setTaskCompleted promptly on expiration)")
        terminateApp(reason: .watchdog, for: task)
    }
}
