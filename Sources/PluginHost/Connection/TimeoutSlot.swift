import Dispatch
import Synchronization

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
