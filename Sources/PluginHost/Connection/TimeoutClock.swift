import Dispatch
import Foundation
import Synchronization

/// Every call timeout of the process on one thread: a heap of deadlines and a
/// semaphore the thread waits on until the first of them.
///
/// A timer source per call (what ``CallTimer`` was) costs the dispatch manager thread
/// a wake-up to arm it and another to cancel it, even for a call answered in
/// microseconds: 58% of the 15 context switches of a system-level step with the built-in
/// engine (`perf record -e context-switches`, `docs/benchmarks.md`). Here arming a
/// deadline later than the one the thread sleeps until wakes nobody, and cancelling one
/// only forgets its handler; the heap drops the entries of cancelled timers lazily, and a
/// cancel rebuilds it once it holds more than 64 entries and more than twice as many as
/// are live.
///
/// A handler runs on a global queue when its deadline passes (monotonic time), so a
/// slow handler delays no other timeout.
final class TimeoutClock: Sendable {
    /// The process's clock, started on first use.
    static let shared = TimeoutClock()

    private struct Entry {
        var deadline: UInt64
        var token: UInt64
    }

    private struct State {
        var heap: [Entry] = []
        var handlers: [UInt64: @Sendable () -> Void] = [:]
        var lastToken: UInt64 = 0
        /// The deadline the thread sleeps until; nil while it waits for any.
        var sleepingUntil: UInt64?
        var started = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    /// Told, just before the thread waits, the deadline it waits for (nil: any); for tests.
    private let onSleep: (@Sendable (UInt64?) -> Void)?

    /// A clock of its own (the process's is ``shared``); `onSleep` is for tests.
    init(onSleep: (@Sendable (UInt64?) -> Void)? = nil) { self.onSleep = onSleep }

    /// Runs `handler` once `nanoseconds` from now unless ``cancel(_:)`` comes first; the token to cancel it.
    func schedule(afterNanoseconds nanoseconds: UInt64, _ handler: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ min(nanoseconds, UInt64(Int64.max / 2))
        let (token, signal, start) = state.withLock { s -> (UInt64, Bool, Bool) in
            s.lastToken += 1
            s.handlers[s.lastToken] = handler
            Self.push(Entry(deadline: deadline, token: s.lastToken), on: &s.heap)
            let start = !s.started
            s.started = true
            // The thread needs waking only if it would sleep past this deadline.
            let signal = !start && (s.sleepingUntil.map { deadline < $0 } ?? true)
            if signal { s.sleepingUntil = deadline }
            return (s.lastToken, signal, start)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "plugin-call-timeouts"
            thread.start()
        } else if signal {
            wake.signal()
        }
        return token
    }

    /// Forgets a timer: its handler is released at once and will not run. False when
    /// it had fired (or been cancelled) already.
    @discardableResult
    func cancel(_ token: UInt64) -> Bool {
        let handler = state.withLock { s in
            let handler = s.handlers.removeValue(forKey: token)
            if s.heap.count > 64, s.heap.count > 2 * s.handlers.count { Self.rebuild(&s) }
            return handler
        }
        return handler != nil  // released here, outside the lock
    }

    private func run() {
        while true {
            let next = state.withLock { s -> (due: [@Sendable () -> Void], until: UInt64?) in
                let now = DispatchTime.now().uptimeNanoseconds
                var due: [@Sendable () -> Void] = []
                while let top = s.heap.first {
                    guard let handler = s.handlers[top.token] else {
                        Self.popFirst(&s.heap)
                        continue
                    }
                    if top.deadline > now { break }
                    Self.popFirst(&s.heap)
                    s.handlers[top.token] = nil
                    due.append(handler)
                }
                s.sleepingUntil = s.heap.first?.deadline
                return (due, s.sleepingUntil)
            }
            for handler in next.due { DispatchQueue.global().async(execute: handler) }
            onSleep?(next.until)
            if let until = next.until {
                _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: until))
            } else {
                wake.wait()
            }
        }
    }

    /// How many timers are armed now (for tests).
    var liveCount: Int { state.withLock { $0.handlers.count } }

    private static func rebuild(_ s: inout State) {
        let live = s.heap.filter { s.handlers[$0.token] != nil }
        s.heap.removeAll(keepingCapacity: true)
        for entry in live { push(entry, on: &s.heap) }
    }

    private static func push(_ entry: Entry, on heap: inout [Entry]) {
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].deadline < heap[parent].deadline else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private static func popFirst(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var smallest = i
            if l < heap.count, heap[l].deadline < heap[smallest].deadline { smallest = l }
            if r < heap.count, heap[r].deadline < heap[smallest].deadline { smallest = r }
            if smallest == i { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}
