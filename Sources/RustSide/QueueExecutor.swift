import Dispatch

/// A serial executor on a private dispatch queue: the manager's default when it
/// is not simulated. Also a task executor, so the tasks it spawns share the queue.
public final class QueueExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state and is thread-safe.
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs the job on the queue, isolated to this executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.async { [self] in
            unowned.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }

    /// This executor, as an actor's serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// This executor, as a task executor preference.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
