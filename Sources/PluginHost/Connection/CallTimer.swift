import Dispatch
import Synchronization

/// A call's timeout: a one-shot timer source, cancelled (and so released at once)
/// when the call completes first.
final class CallTimer: Sendable {
    /// Timers alive now, for tests: answered calls must not keep theirs.
    static let live = Atomic<Int>(0)
    // Thread-safe: scheduled before resume, then only cancel() is called.
    private nonisolated(unsafe) let source: DispatchSourceTimer

    init(after timeout: Duration, _ handler: @escaping @Sendable (Double) -> Void) {
        let seconds = timeout.seconds
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler { handler(seconds) }
        source.schedule(deadline: .now() + seconds)
        source.resume()
        CallTimer.live.add(1, ordering: .relaxed)
    }

    deinit {
        source.cancel()
        CallTimer.live.subtract(1, ordering: .relaxed)
    }

    func cancel() { source.cancel() }
}

/// Where a call's timer lives: armed before the request is written, unless the call
/// has completed by then; released when it completes. It knows whether the request is
/// still being written when the time is up (the plugin does not read: the caller then
/// stops it).
final class TimeoutSlot: Sendable {
    private let state = Mutex<(finished: Bool, timer: CallTimer?, writing: Bool)>((false, nil, false))

    /// Arms the timer; `handler` gets the timeout in seconds and whether the write was
    /// still in progress.
    func arm(after timeout: Duration, _ handler: @escaping @Sendable (Double, Bool) -> Void) {
        state.withLock { s in
            if !s.finished {
                s.timer = CallTimer(after: timeout) { [self] seconds in
                    handler(seconds, state.withLock { $0.writing })
                }
            }
        }
    }

    /// Marks the request's write as started or ended.
    func writing(_ on: Bool) { state.withLock { $0.writing = on } }

    func finish() {
        let timer = state.withLock { s -> CallTimer? in
            s.finished = true
            defer { s.timer = nil }
            return s.timer
        }
        timer?.cancel()
    }
}
