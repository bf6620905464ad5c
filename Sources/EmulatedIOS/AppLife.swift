import HostProtocol

/// What the `--os ios` system remembers of the app's state (issue 23; ``IOSSystem/life``),
/// used while the policy's `appStates` is on (`EmulatedOS+AppStates.swift`).
package struct AppLife {
    /// The running process's state (`notRunning` when there is none).
    package var state = AppState.background
    /// When the app last became idle in the background (it entered the background, or its
    /// last running task ended there): its suspension is due `suspendDelaySecs` later.
    package var idleSince = VirtualTime.zero
    /// While suspended: when the system ends the app to reclaim memory (jetsam), if this
    /// suspension drew it (`EmulatedOS+Jetsam.swift`).
    package var jetsamAt: VirtualTime?

    /// A fresh record: a running app in the background, idle from `now`.
    package init(at now: VirtualTime = .zero) {
        idleSince = now
    }
}
