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
        return IOSStateSnapshot(
            app: appStatus, policy: ios.policy, energy: energy, runningTask: running.first, nextEventAt: nextDueTime(),
            runningTasks: running)
    }
}
