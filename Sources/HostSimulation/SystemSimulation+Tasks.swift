import HostProtocol

/// The task the OS has running, as the plugin's events tell it.
///
/// `plugin/state.activeTask` is the port's view: the task its `currentRefreshTask` or
/// `currentProcessingTask` holds. The OS's view can differ: under `--dispatch tauri` the
/// seed's `cleanup()` on the `ipc` queue can set `currentRefreshTask = nil` just after the
/// launch handler on the main queue stored a new task, and the plugin then holds no
/// reference to a task the OS is still running (nothing will ever complete it). The
/// simulation follows the OS's view from `os/taskLaunched` (running), the first
/// `os/taskCompleted` of it (done) and `os/appTerminated` (the OS ends it with the app),
/// so that it neither waits for an auto-launch the OS will not make while that task runs
/// nor misses the task when it enforces the refresh budget.
extension SystemSimulation {
    /// A task the OS launched and nobody has completed yet.
    struct OSTask {
        var task: PluginStateSnapshot.ActiveTask
        /// Whether the OS has already run its expiration handler.
        var expired = false
    }

    /// The task the OS launched and nobody has completed yet, if any (the OS runs one at a time).
    public var osRunningTask: PluginStateSnapshot.ActiveTask? { osTask?.task }

    /// ``osRunningTask`` and whether its expiration handler ran, read at once.
    var osTask: OSTask? { shared.withLock { $0.osTask } }
}

extension SystemSimulation.Shared {
    /// Follows `os/taskLaunched`, `os/taskExpired`, `os/taskCompleted` and `os/appTerminated`; on the
    /// thread that reads the plugin's output (for the engine in this process, the one that hands it
    /// over), under the lock that records the event, before the reply that follows it is delivered.
    mutating func followTasks(_ event: RPCNotification) {
        switch event.method {
        case TaskLaunchedEvent.name:
            guard let p = try? TaskLaunchedEvent.Params(json: event.params ?? .null), let kind = p.kind else { return }
            osTask = .init(task: .init(identifier: p.identifier, kind: kind, launchedAt: p.at))
        case TaskExpiredEvent.name:
            guard let p = try? TaskExpiredEvent.Params(json: event.params ?? .null) else { return }
            if osTask?.task.identifier == p.identifier { osTask?.expired = true }
        case TaskCompletedEvent.name:
            guard let p = try? TaskCompletedEvent.Params(json: event.params ?? .null) else { return }
            if osTask?.task.identifier == p.identifier { osTask = nil }
        case AppTerminatedEvent.name:
            osTask = nil
        default:
            break
        }
    }
}
