import HostProtocol
import RustSide

/// A process's view of a ``VirtualHostClock``: its sleeps belong to one group,
/// which ends with the process (``VirtualHostClock/endGroup(_:)``), so no task of
/// a dead process sleeps for ever.
public struct ProcessClock: HostClock {
    /// The shared clock.
    public let base: VirtualHostClock
    /// The process's group (not 0).
    public let group: UInt64

    /// A view of `base` for the process numbered `group`.
    public init(base: VirtualHostClock, group: UInt64) {
        precondition(group != 0, "group 0 means no group")
        self.base = base
        self.group = group
    }

    /// The shared clock's time.
    public var now: VirtualTime { base.now }

    /// Sleeps in the process's group: it ends (with an error) when the process does.
    public func sleep(until deadline: VirtualTime) async throws {
        try await base.sleep(until: deadline, group: group)
    }

    /// Sleeps through task cancellation, but not through the end of the process.
    public func sleepIgnoringCancellation(until deadline: VirtualTime) async throws {
        try await base.sleepIgnoringCancellation(until: deadline, group: group)
    }
}
