import Dispatch
import HostProtocol

/// The host's clock, injected wherever host-side logic waits (the cancel
/// listener's timeout, a service's work).
///
/// Times are ``VirtualTime`` values since the clock's origin, the same unit the
/// plugin uses, so that under simulation host and plugin share one timeline.
public protocol HostClock: Sendable {
    /// Time since the clock's origin.
    var now: VirtualTime { get }
    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: VirtualTime) async throws
    /// Suspends until `deadline` even if the task is cancelled meanwhile.
    func sleepIgnoringCancellation(until deadline: VirtualTime) async throws
}

extension HostClock {
    /// Suspends for `seconds`.
    public func sleep(seconds: Double) async throws {
        try await sleep(until: now.adding(seconds: seconds))
    }
}

/// Real time (a monotonic clock), for hosts that are not simulated.
public struct ContinuousHostClock: HostClock {
    private let origin = ContinuousClock.now

    /// Starts at 0 now.
    public init() {}

    /// Monotonic time since this clock was made.
    public var now: VirtualTime {
        let d = ContinuousClock.now - origin
        return VirtualTime(nanoseconds: d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000)
    }

    /// Sleeps until `deadline`; throws if the task is cancelled.
    public func sleep(until deadline: VirtualTime) async throws {
        let delta = deadline.nanoseconds - now.nanoseconds
        if delta > 0 { try await Task.sleep(for: .nanoseconds(delta)) }
        try Task.checkCancellation()
    }

    /// Sleeps until `deadline` whatever happens to the task.
    public func sleepIgnoringCancellation(until deadline: VirtualTime) async throws {
        let delta = deadline.nanoseconds - now.nanoseconds
        guard delta > 0 else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delta))) { c.resume() }
        }
    }
}
