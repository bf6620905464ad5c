import Synchronization

/// A call's timeout on the process's ``TimeoutClock``, cancelled (its handler released
/// at once) when the call completes first.
final class CallTimer: Sendable {
    /// Timers armed now, for tests: answered calls must not keep theirs.
    static var live: Int { TimeoutClock.shared.liveCount }
    private let token: UInt64

    init(after timeout: Duration, _ handler: @escaping @Sendable (Double) -> Void) {
        let seconds = timeout.seconds
        token = TimeoutClock.shared.schedule(afterNanoseconds: UInt64(max(0, timeout.clampedNanoseconds))) {
            handler(seconds)
        }
    }

    deinit { TimeoutClock.shared.cancel(token) }

    func cancel() { TimeoutClock.shared.cancel(token) }
}
