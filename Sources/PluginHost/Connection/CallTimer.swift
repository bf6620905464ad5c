import Synchronization

/// A call's timeout on the process's ``TimeoutClock``, cancelled (its handler released
/// at once) when the call completes first.
final class CallTimer: Sendable {
    /// Timers armed now, for tests: answered calls must not keep theirs.
    static var live: Int { TimeoutClock.shared.liveCount }
    private let token: UInt64

    init(after timeout: Duration, _ handler: @escaping @Sendable (Double) -> Void) {
        let seconds = timeout.seconds
        let nanoseconds = seconds >= Double(Int64.max / 2) / 1e9 ? UInt64(Int64.max / 2) : UInt64(max(0, seconds * 1e9))
        token = TimeoutClock.shared.schedule(afterNanoseconds: nanoseconds) { handler(seconds) }
    }

    deinit { TimeoutClock.shared.cancel(token) }

    func cancel() { TimeoutClock.shared.cancel(token) }
}
