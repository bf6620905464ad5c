import Dispatch
import Foundation
import Synchronization

/// An executor that runs nothing until asked: jobs queue up and run on the thread
/// that calls ``runNext()``, oldest first.
///
/// It is both a `SerialExecutor` (an actor can use it as its executor) and a
/// `TaskExecutor` (tasks created with it as their preference run on it), so a
/// whole host (service manager, listener, service) can be driven step by step,
/// in an order that depends only on what happened, never on thread timing.
///
/// The Rust side's own nondeterminism (which of two threads reaches the plugin
/// first) is not left to the job order: each such point is a named ``Race`` that
/// a ``RacePlan`` decides.
public final class ManualExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched under `lock`.
    private let lock = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Creates an empty executor.
    public init() {}

    /// Queues a job; it runs when ``runNext()`` reaches it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        lock.lock()
        jobs.append(unowned)
        lock.signal()
        lock.unlock()
    }

    /// This executor, as an actor's serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// This executor, as a task executor preference.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// How many jobs are waiting.
    public var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return jobs.count
    }

    /// Runs the oldest waiting job; false when there was none.
    @discardableResult
    public func runNext() -> Bool {
        lock.lock()
        guard !jobs.isEmpty else {
            lock.unlock()
            return false
        }
        let job = jobs.removeFirst()
        lock.unlock()
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        return true
    }

    /// Runs jobs until none is waiting.
    public func runUntilEmpty() {
        while runNext() {}
    }
}
