import HostProtocol

/// The plugin's clock: the only place its logic reads time from.
///
/// Virtual: starts at 0 and moves only when the emulated OS advances it.
/// Real: `now` follows a monotonic source scaled by `timeScale` (virtual seconds
/// per real second), sampled by the runtime before each batch of work.
package final class PluginClock {
    package let kind: ClockKind
    /// Virtual seconds per real second (real clock only).
    package let timeScale: Double
    /// Monotonic nanoseconds; injected so that tests can drive the real clock too.
    private let monotonicNanoseconds: () -> UInt64
    private let origin: UInt64

    /// The current time. Moved forward by ``EmulatedOS/advance(to:)`` only.
    package private(set) var now: VirtualTime = .zero

    package init(kind: ClockKind, timeScale: Double, monotonicNanoseconds: @escaping () -> UInt64) {
        self.kind = kind
        self.timeScale = timeScale
        self.monotonicNanoseconds = monotonicNanoseconds
        self.origin = monotonicNanoseconds()
    }

    /// For the real clock: what time it is now on the scaled clock.
    package var realNow: VirtualTime {
        let elapsed = Double(monotonicNanoseconds() &- origin) * timeScale
        return VirtualTime(nanoseconds: elapsed >= Double(VirtualTime.limit) ? VirtualTime.limit : Int64(elapsed))
    }

    /// Real nanoseconds until the scaled clock reaches `time` (0 if already passed).
    package func realDelay(until time: VirtualTime) -> UInt64 {
        let virtualDelta = Double(time.nanoseconds - realNow.nanoseconds)
        guard virtualDelta > 0 else { return 0 }
        return UInt64(min(virtualDelta / timeScale, 1e18))
    }

    /// Moves `now` forward (never backward).
    package func set(_ time: VirtualTime) {
        if time > now { now = time }
    }
}
