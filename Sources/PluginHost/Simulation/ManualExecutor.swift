import Dispatch
import Foundation
import Synchronization

/// An executor that runs nothing until asked: jobs queue up and run on the thread
/// that calls ``runNext()``, oldest first, or in an order drawn from a seed.
///
/// It is both a `SerialExecutor` (an actor can use it as its executor) and a
/// `TaskExecutor` (tasks created with it as their preference run on it), so a
/// whole host (service manager, listener, service) can be driven step by step,
/// in an order that depends only on what happened, never on thread timing.
///
/// Swift promises no order among runnable jobs of different tasks, and neither
/// does the Rust side among its tasks and threads. A seeded schedule picks the
/// next job at random (reproducibly), so that a fuzzer can explore the
/// interleavings a real host may go through; FIFO is the default.
public final class ManualExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `schedule` are only touched under `lock`.
    private let lock = NSCondition()
    private var jobs: [UnownedJob] = []
    private var schedule: SplitMix64?

    /// Creates an empty executor: FIFO, or a seeded random order.
    public init(scheduleSeed: UInt64? = nil) {
        schedule = scheduleSeed.map(SplitMix64.init(seed:))
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        lock.lock()
        jobs.append(unowned)
        lock.signal()
        lock.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

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
        var index = 0
        if jobs.count > 1, var rng = schedule {
            index = rng.below(jobs.count)
            schedule = rng
        }
        let job = jobs.remove(at: index)
        lock.unlock()
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        return true
    }

    /// Runs jobs until none is waiting.
    public func runUntilEmpty() {
        while runNext() {}
    }
}
