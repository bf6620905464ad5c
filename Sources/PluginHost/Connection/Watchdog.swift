import Synchronization

/// A deadline for a blocking operation on a plugin: if the operation has not finished
/// when it passes, `onFire` runs (typically `transport.terminate()`, which ends the
/// blocked read), and the operation reports a timeout instead of what the stopped
/// plugin made it see. For code that reads on its own thread (``DirectConnection``,
/// the benchmark, the fuzz driver) and so cannot simply stop waiting.
///
/// The operation and the deadline settle who came first under one lock: a deadline
/// that passes as the operation finishes leaves the plugin alone.
///
/// ```swift
/// let watchdog = Watchdog(after: .seconds(30)) { transport.terminate() }
/// let frame = try reader.next()
/// if watchdog.finish() { throw HostError.timedOut(method: "plugin/state", seconds: 30) }
/// ```
public final class Watchdog: Sendable {
    private final class Outcome: Sendable {
        let state = Mutex<(finished: Bool, fired: Bool)>((false, false))
    }

    private let outcome = Outcome()
    private let timer = Mutex<CallTimer?>(nil)

    /// Arms the deadline `timeout` from now.
    public init(after timeout: Duration, onFire: @escaping @Sendable () -> Void) {
        let armed = CallTimer(after: timeout) { [outcome] _ in
            let fire = outcome.state.withLock { s -> Bool in
                guard !s.finished else { return false }
                s.fired = true
                return true
            }
            if fire { onFire() }
        }
        timer.withLock { $0 = armed }
    }

    /// Ends the operation and releases the timer; true when the deadline had passed
    /// first (and `onFire` ran).
    @discardableResult
    public func finish() -> Bool {
        let fired = outcome.state.withLock { s -> Bool in
            s.finished = true
            return s.fired
        }
        timer.withLock { t in
            t?.cancel()
            t = nil
        }
        return fired
    }

    /// Whether the deadline has passed and `onFire` ran.
    public var fired: Bool { outcome.state.withLock { $0.fired } }
}
