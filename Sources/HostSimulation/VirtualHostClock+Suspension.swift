import HostProtocol
import RustSide

/// App suspension on the host's side (issue 23; `docs/host.md`, "Suspension").
///
/// While the app is suspended nothing of it runs, its Rust side included: the tokio-style
/// timers of the process's group (the service's work, the cancel listener's timeout) do not
/// wake, whatever the clock reads. The clock itself keeps counting, as the monotonic clock
/// tokio's timers read does (`std::time::Instant`: `CLOCK_UPTIME_RAW` on Apple platforms,
/// which stops only while the whole device sleeps, never for one app's suspension): a timer
/// whose deadline passed meanwhile fires at once when the app is resumed, late, as tokio's
/// timer wheel fires every elapsed entry on its next turn.
extension VirtualHostClock {
    /// The app process of `group` is suspended: its sleepers stay asleep until ``thawGroup(_:)``.
    public func freezeGroup(_ group: UInt64) {
        guard group != 0 else { return }
        withFrozenGroups { $0.insert(group) }
    }

    /// The process of `group` is resumed: its sleepers whose deadline has passed wake now,
    /// earliest first.
    public func thawGroup(_ group: UInt64) {
        withFrozenGroups { $0.remove(group) }
        advance(to: now)
    }

    /// Whether `group`'s sleepers are frozen.
    public func isFrozen(_ group: UInt64) -> Bool {
        var frozen = false
        withFrozenGroups { frozen = $0.contains(group) }
        return frozen
    }
}
