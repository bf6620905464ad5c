import HostProtocol

/// Records every task completion: each launched task must be completed exactly once.
package final class CompletionLedger {
    private var completed: Set<UInt64> = []
    private let events: EventSink
    private let clock: PluginClock
    /// Called after a first completion (the scheduler frees its slot).
    package var onFirstCompletion: ((BGTask) -> Void)?

    package init(events: EventSink, clock: PluginClock) {
        self.events = events
        self.clock = clock
    }

    /// Whether a task has been completed.
    package func isCompleted(_ task: BGTask) -> Bool { completed.contains(task.serial) }

    package func complete(_ task: BGTask, success: Bool) {
        guard completed.insert(task.serial).inserted else {
            events.violation(
                rule: "exactly-once",
                detail:
                    "setTaskCompleted(success: \(success)) called again for \(task.identifier) launched at "
                    + "\(task.launchedAt.decimalSeconds); ignored"
            )
            return
        }
        events.counters.completed += 1
        events.send(TaskCompletedEvent.self, .init(identifier: task.identifier, at: clock.now, success: success))
        onFirstCompletion?(task)
    }
}
