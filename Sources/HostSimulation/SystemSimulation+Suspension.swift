import HostProtocol
import RustSide

/// The app's suspension on the host's side (`--os ios` with the policy's `appStates`;
/// issue 23): the Rust side is part of the app's process, so while the plugin says the app is
/// suspended (`os/appStateChanged {state: "suspended"}`) the current process's timers are
/// frozen (``VirtualHostClock/freezeGroup(_:)``), and when it is resumed (`background`,
/// `foreground`) those that came due meanwhile fire at once (``VirtualHostClock/thawGroup(_:)``).
/// A jetsam ends the process as any termination does (`os/appTerminated`).
extension SystemSimulation {
    /// Follows the app's state: freezes or thaws the current process's timers.
    func appStateChanged(_ change: AppStateChange) {
        let process = currentProcess
        let group = UInt64(process.number)
        switch change.state {
        case .suspended:
            clock.freezeGroup(group)
            append(.note("app process \(process.number) is suspended: its Rust side stops (its timers wait)"))
        case .background, .foreground:
            guard clock.isFrozen(group) else { return }
            append(
                .note(
                    "app process \(process.number) resumes (\(change.state.rawValue)): "
                        + "Rust-side timers that came due meanwhile fire now"))
            clock.thawGroup(group)
        case .notRunning:
            break
        }
    }
}
