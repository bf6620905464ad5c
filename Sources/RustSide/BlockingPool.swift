import Synchronization

/// tokio's blocking pool, as `spawn_blocking` uses it: at most `capacity` threads
/// (512 by default). A closure spawned while every thread is busy is not refused:
/// it waits in a FIFO queue until a thread frees, and only then runs. A thread
/// blocked in a bridge call stays busy until the plugin answers that call, which
/// for an invoke the plugin dropped is never.
///
/// Threads here are accounting, not OS threads: a "thread" is held by the task
/// that plays the blocking closure, from when it gets one until it returns.
///
/// ```swift
/// let pool = BlockingPool(capacity: 2)
/// let thread = await pool.acquire(run: 1) { /* queued: every thread is busy */ }
/// pool.release(thread)
/// ```
// Departs: a thread is a task's claim on the pool, not an OS thread.
public final class BlockingPool: Sendable {
    /// tokio's default `max_blocking_threads`.
    public static let tokioDefault = 512

    /// How many threads the pool may have.
    public let capacity: Int

    private struct Waiting {
        let run: UInt64
        let continuation: CheckedContinuation<Int, Never>
    }

    private struct State {
        var busy: [Int: UInt64] = [:]
        var waiting: [Waiting] = []
    }

    private let state = Mutex(State())

    /// A pool of `capacity` threads (at least 1).
    public init(capacity: Int = BlockingPool.tokioDefault) {
        self.capacity = max(1, capacity)
    }

    /// A thread for run `run`'s closure: the lowest free one at once, or, when all
    /// are busy, the next one that frees (first come, first served). `queued` is
    /// called, before waiting, when the closure has to wait.
    public func acquire(run: UInt64, queued: @Sendable () -> Void = {}) async -> Int {
        await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in
            let thread: Int? = state.withLock { s in
                if let free = (1...capacity).first(where: { s.busy[$0] == nil }) {
                    s.busy[free] = run
                    return free
                }
                s.waiting.append(Waiting(run: run, continuation: c))
                return nil
            }
            if let thread { c.resume(returning: thread) } else { queued() }
        }
    }

    /// The closure on `thread` returned: the thread goes to the oldest queued closure, if any
    /// (returned: the run of the closure it went to).
    @discardableResult
    public func release(_ thread: Int) -> UInt64? {
        let next: Waiting? = state.withLock { s in
            guard !s.waiting.isEmpty else {
                s.busy.removeValue(forKey: thread)
                return nil
            }
            let w = s.waiting.removeFirst()
            s.busy[thread] = w.run
            return w
        }
        next?.continuation.resume(returning: thread)
        return next?.run
    }

    /// How many threads are busy.
    public var busyCount: Int { state.withLock { $0.busy.count } }

    /// The runs whose closures wait for a thread, oldest first.
    public var queuedRuns: [UInt64] { state.withLock { $0.waiting.map(\.run) } }
}
