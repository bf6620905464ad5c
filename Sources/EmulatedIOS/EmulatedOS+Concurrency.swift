import HostProtocol

/// How many tasks run at once.
///
/// `--os manual` runs one at a time (the contract's one-active rule). `--os ios` runs up to
/// the policy's `maxConcurrentTasks` (default: no limit), so a refresh task and a processing
/// task may run together, as they do on a device (immich-app/immich pull request 22111: "It's
/// possible for processing and refresh tasks to run concurrently"); Apple documents no
/// one-at-a-time guarantee, which only the seed's comment (seed lines 52-57) assumes. An
/// identifier is never launched again while its task runs (a request is one task; its
/// launch takes the request). Each running task keeps its own budget, expiration and
/// watchdog (``RunningTaskTimes``).
extension EmulatedOS {
    /// The first running task (launch order), or nil: the one task under `--os manual`.
    package var runningTask: BGTask? { runningTasks.first }

    /// The running task of `identifier`, if one runs.
    package func runningTask(_ identifier: String) -> BGTask? {
        runningTasks.first { $0.identifier == identifier }
    }

    /// Whether the OS still counts `task` as running.
    package func isRunning(_ task: BGTask) -> Bool {
        runningTasks.contains { $0 === task }
    }

    /// Why a task of `identifier` cannot start now because of the tasks already running
    /// (the `taskRunning` factor's detail), or nil.
    package func launchRefusal(of identifier: String) -> String? {
        guard let first = runningTasks.first else { return nil }
        if let limit = policy.maxConcurrentTasks, runningTasks.count >= limit {
            if limit == 1 { return "\(first.identifier) is still running (the OS runs one task at a time)" }
            let names = runningTasks.map(\.identifier).joined(separator: ", ")
            return "\(runningTasks.count) tasks are running (\(names)); maxConcurrentTasks is \(limit)"
        }
        if runningTask(identifier) != nil {
            return "\(identifier) is already running (the OS launches an identifier again only once its task ends)"
        }
        return nil
    }

    /// The `taskRunning` factor's detail for `os/explain` and `os/launchDeferred`, or nil.
    package func taskRunningDetail(for identifier: String) -> String? {
        guard let refusal = launchRefusal(of: identifier) else { return nil }
        if policy.maxConcurrentTasks == 1, let first = runningTasks.first {
            return "\(first.identifier) is running; the system runs one task at a time"
        }
        return refusal
    }

    /// The OS stops counting every running task (a launch past the limit under the
    /// `allow-concurrent-launch` fault): their deadlines are gone, nothing completes them.
    func forgetRunningTasks() {
        let lost = runningTasks
        runningTasks.removeAll()
        for task in lost { policy.taskEnded(task, in: self) }
    }

    /// The running task (launch order) whose budget is due now: the one to expire.
    func expireDueBudget() {
        guard let ios, let due = ios.earliest(\.budgetDeadline, among: runningTasks) else { return }
        expire(due.task, cause: .budget)
    }
}
