import Dispatch
import Foundation
import Synchronization

/// An executor that runs nothing until asked: jobs queue up and run on the thread
/// that calls ``runNext()``.
///
/// It is both a `SerialExecutor` (an actor can use it as its executor) and a
/// `TaskExecutor` (tasks created with it as their preference run on it), so a
/// whole host (service manager, listener, service) can be driven step by step,
/// in an order that depends only on what happened, never on thread timing.
///
/// The order is the tasks' own, not the jobs': a task runs until it really
/// suspends (it awaits something that has not happened yet); tasks made ready
/// (created, or resumed by what another task or the driver did) run oldest first.
/// A task that only changes isolation (from the manager actor to a nonisolated
/// function and back) enqueues itself again while its job is running: that job is
/// run next, before any other, so the number of such hops, which the optimizer
/// changes (a debug build makes more than a release build), never changes the order.
///
/// The Rust side's own nondeterminism (which of two threads reaches the plugin
/// first) is not left to the job order: each such point is a named ``Race`` that
/// a ``RacePlan`` decides.
public final class ManualExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `running` and `continuing` are only touched under `lock`.
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    /// The job being run, by address: for a task's job, the task itself.
    private var running: UnsafeRawPointer?
    /// The running task, enqueued again by itself (a hop): it goes on next.
    private var continuing: UnownedJob?

    /// Creates an empty executor.
    public init() {}

    /// Queues a job; it runs when ``runNext()`` reaches it (at once after the job
    /// running now, when it is that job's task hopping).
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        lock.withLock {
            if continuing == nil, let running, running == Self.address(unowned) {
                continuing = unowned
            } else {
                jobs.append(unowned)
            }
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

    /// How many jobs are waiting.
    public var queuedCount: Int {
        lock.withLock { jobs.count + (continuing == nil ? 0 : 1) }
    }

    /// Runs the task that hopped, else the oldest waiting job; false when there was none.
    @discardableResult
    public func runNext() -> Bool {
        let next: UnownedJob? = lock.withLock {
            let job = continuing ?? (jobs.isEmpty ? nil : jobs.removeFirst())
            continuing = nil
            running = job.map(Self.address)
            return job
        }
        guard let next else { return false }
        next.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        lock.withLock { running = nil }
        return true
    }

    /// Runs jobs until none is waiting.
    public func runUntilEmpty() {
        while runNext() {}
    }

    /// A job's identity: `UnownedJob` is one pointer, the job (a task's job is the task).
    private static func address(_ job: UnownedJob) -> UnsafeRawPointer {
        unsafeBitCast(job, to: UnsafeRawPointer.self)
    }
}
