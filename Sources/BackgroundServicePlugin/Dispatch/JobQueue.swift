/// A first-in, first-out queue of one emulated dispatch queue's jobs (``Dispatcher``).
///
/// Taking the head is constant time: an array's `removeFirst()` moves every job behind it,
/// so a JSON-RPC batch of n invokes under `--dispatch tauri` (all queued before any runs)
/// took n² moves. A taken job's slot is cleared at once, so nothing keeps a finished job
/// (and the invoke its frame holds) alive: an invoke let go of unanswered is reported by the
/// statement that let go of it, not later.
///
/// ```swift
/// var queue = JobQueue<Int>()
/// queue.append(1); queue.append(2)
/// queue.first        // 1
/// queue.removeFirst() // 1
/// ```
struct JobQueue<Job> {
    private var slots: [Job?] = []
    private var head = 0

    /// Whether no job is queued.
    var isEmpty: Bool { head == slots.count }

    /// The job that runs next.
    var first: Job? { isEmpty ? nil : slots[head] }

    /// Queues a job behind the others.
    mutating func append(_ job: Job) {
        slots.append(job)
    }

    /// Takes the job that runs next (the queue is not empty).
    @discardableResult
    mutating func removeFirst() -> Job {
        let job = slots[head]!
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 4096, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return job
    }
}
