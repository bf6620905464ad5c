import HostProtocol

/// The daily energy budget of `--os ios` (WWDC20 "Background execution
/// demystified": energy and data budgets deplete with launches and refill over the day).
///
/// A bucket holding `capacity` launches; each background launch spends one; it
/// refills evenly, `capacity` launches per 24 hours. Integer arithmetic keeps it
/// exact: one launch is `nanosecondsPerDay` units and the bucket gains `capacity`
/// units per nanosecond.
package struct EnergyBudget: Equatable {
    package static let nanosecondsPerDay: Int64 = 86_400_000_000_000
    package private(set) var capacity: Int
    /// Units at `updatedAt`.
    private var level: Int64
    private var updatedAt: VirtualTime

    /// A full budget.
    package init(capacity: Int, at now: VirtualTime) {
        self.capacity = capacity
        level = Int64(capacity) * EnergyBudget.nanosecondsPerDay
        updatedAt = now
    }

    private var full: Int64 { Int64(capacity) * EnergyBudget.nanosecondsPerDay }

    /// Units at `t` (>= the last update).
    private func level(at t: VirtualTime) -> Int64 {
        let elapsed = max(0, t.nanoseconds - updatedAt.nanoseconds)
        let (gain, overflow) = elapsed.multipliedReportingOverflow(by: Int64(capacity))
        if overflow { return full }
        return min(full, level + gain)
    }

    /// Whole launches available at `t`.
    package func launchesAvailable(at t: VirtualTime) -> Int { Int(level(at: t) / EnergyBudget.nanosecondsPerDay) }

    /// The earliest time >= `t` at which one launch is affordable.
    package func affordableAt(_ t: VirtualTime) -> VirtualTime {
        let missing = EnergyBudget.nanosecondsPerDay - level(at: t)
        guard missing > 0 else { return t }
        return t.adding(nanoseconds: (missing + Int64(capacity) - 1) / Int64(capacity))
    }

    /// When the budget is full again (t when it is).
    package func fullAt(_ t: VirtualTime) -> VirtualTime {
        let missing = full - level(at: t)
        guard missing > 0 else { return t }
        return t.adding(nanoseconds: (missing + Int64(capacity) - 1) / Int64(capacity))
    }

    /// Spends one launch at `t` (the caller checked it is affordable; never below 0).
    package mutating func spend(at t: VirtualTime) {
        level = max(0, level(at: t) - EnergyBudget.nanosecondsPerDay)
        updatedAt = t
    }

    /// A new capacity: the current level is kept, clamped to the new capacity.
    package mutating func setCapacity(_ launches: Int, at t: VirtualTime) {
        level = level(at: t)
        updatedAt = t
        capacity = launches
        level = min(level, full)
    }
}
