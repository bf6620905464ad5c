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
