import Dispatch
import HostProtocol

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
