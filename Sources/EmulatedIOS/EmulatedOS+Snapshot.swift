import HostProtocol

extension EmulatedOS {
    /// `plugin/state`'s `ios` member (nil under `--os manual`).
    package var iosSnapshot: IOSStateSnapshot? {
        guard let ios else { return nil }
        let energy = IOSStateSnapshot.Energy(
            launchesAvailable: ios.energy.launchesAvailable(at: clock.now), capacity: ios.energy.capacity,
            fullAt: ios.energy.fullAt(clock.now))
        let running = runningTasks.map { task in
            let times = ios.running[task.serial]
            return IOSStateSnapshot.RunningTask(
                identifier: task.identifier, budgetDeadline: times?.budgetDeadline, expiredAt: times?.expiredAt,
                watchdogDeadline: times?.watchdogDeadline)
        }
        // `runningTask` stays as it was; each `runningTasks` entry also says whether the app holds it.
        let held = zip(running, runningTasks).map { entry, task in
            var entry = entry
            entry.heldByApp = app.isRunning && (app.plugin?.holds(task) ?? true)
            return entry
        }
        return IOSStateSnapshot(
            app: appStatus, policy: ios.policy, energy: energy, runningTask: running.first, nextEventAt: nextDueTime(),
            runningTasks: held, appState: appState, lastUsedAt: lastUsedAt)
    }
}
