import HostProtocol

extension EmulatedOS {
    /// `plugin/state`'s `ios` member (nil under `--os manual`).
    package var iosSnapshot: IOSStateSnapshot? {
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
