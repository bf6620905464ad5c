import HostProtocol

/// What the `--os ios` system keeps for one running task (``IOSSystem/running``): its
/// runtime budget, when its expiration handler ran, the watchdog's deadline, and a
/// processing task's constraints. Each running task has its own: two tasks running at
/// once (`maxConcurrentTasks`) are expired, and killed for, each on its own clock.
package struct RunningTaskTimes {
    /// When the OS expires the task (nil once expired).
    package var budgetDeadline: VirtualTime?
    /// When its expiration handler ran.
    package var expiredAt: VirtualTime?
    /// When the watchdog kills the app unless the task completes first.
    package var watchdogDeadline: VirtualTime?
    /// A processing task's constraints (they expire it when lost).
    package var constraints: (power: Bool, network: Bool)?

    /// A task's times at launch: only its budget.
    package init(budgetDeadline: VirtualTime?, constraints: (power: Bool, network: Bool)? = nil) {
        self.budgetDeadline = budgetDeadline
        self.constraints = constraints
    }
}

extension IOSSystem {
    /// The running task (of `tasks`, in launch order) whose `deadline` is the earliest, and that deadline.
    package func earliest(
        _ deadline: (RunningTaskTimes) -> VirtualTime?, among tasks: [BGTask]
    ) -> (task: BGTask, at: VirtualTime)? {
        var best: (task: BGTask, at: VirtualTime)?
        for task in tasks {
            guard let at = running[task.serial].flatMap(deadline) else { continue }
            if best.map({ at < $0.at }) ?? true { best = (task, at) }
        }
        return best
    }
}
