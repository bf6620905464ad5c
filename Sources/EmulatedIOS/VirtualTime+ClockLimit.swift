import HostProtocol

/// The clock's limit as the emulated OS reads it (`docs/rules.md`, "timers").
extension VirtualTime {
    /// Whether this time is at the clock's limit, where every deadline computed beyond it is
    /// clamped: such a deadline never comes (the clock never gets past the limit, and an event
    /// due at it would be due again at once, for ever).
    package var reachesClockLimit: Bool { nanoseconds >= VirtualTime.limit }

    /// The time from `earlier` to this one (clamped).
    package func subtracting(_ earlier: VirtualTime) -> VirtualTime {
        adding(nanoseconds: -earlier.nanoseconds)
    }
}
