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
