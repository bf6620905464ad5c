import HostProtocol
import HostSimulation

/// I8 and I9 (`--os ios` with the policy's `appStates`, issue 23), read from the timeline in
/// the order things happened.
///
/// The app's state is followed from the plugin's events: `os/appStateChanged` (foreground,
/// background, suspended), `os/appLaunched` (a process starts in the foreground when the user
/// opened it, else in the background) and `os/appTerminated` (not running).
///
/// - **I8, no Rust-side timer fires while the app is suspended.** The Rust side is part of the
///   app's process: while it is suspended, its tokio timers (the service's work, the cancel
///   listener's timeout) wait (`docs/host.md`, "Suspension"). While time passes, a request
///   the Rust side writes between the suspension and the next state change can only be one of
///   those timers firing. (Not during the app's own commands, which the fuzzer may draw at any
///   time: a suspended app would not run them, but that is the fuzzer's doing.)
/// - **I9, no processing launch into the foreground.** iOS launches processing tasks only once
///   the user leaves the app (`docs/rules.md`, ios.foreground; the factor `appInForeground`).
///   The developer's `os/launch` (the debugger's simulate-launch) ignores every factor and is
///   not a finding.
///
/// Every expired task completed, or the app killed: I1 already reads every watchdog kill,
/// whichever cause expired the task (`foreground` included), so no invariant is added for it.
extension InvariantChecker {
    /// The cause I8 reports.
    static let suspendedTimerCause = "a Rust-side timer fires while the app is suspended"
    /// The cause I9 reports.
    static let foregroundLaunchCause = "a processing task is launched into the foreground"

    /// I8 and I9 over the timeline entries past those already read; `state` is the app's state
    /// the plugin reports after the step (nil: `appStates` off), `timePassing` whether the step
    /// was time passing, `forcedLaunch` whether it was the developer's `os/launch`.
    mutating func appStates(
        _ timeline: [TimelineEntry], state: AppState?, timePassing: Bool, forcedLaunch: Bool
    ) -> [Violation] {
        defer {
            timelineSeen = timeline.count
            appState = state
            if state != .suspended { suspendedAt = nil }
        }
        // (With appStates off at the step's start there is nothing to follow: no state is modelled.)
        guard appState != nil, timeline.count > timelineSeen else { return [] }
        var found: [Violation] = []
        for entry in timeline[timelineSeen...] {
            switch entry.kind {
            case .event(let event):
                found += followed(event, at: entry.time, forcedLaunch: forcedLaunch)
            // (Work the Rust side was woken for before the suspension, by an answer at its very
            // instant, still runs at that instant: the host freezes timers, not woken work.)
            case .request(let request, .rust)
            where appState == .suspended && timePassing && entry.time > (suspendedAt ?? entry.time):
                found.append(
                    Violation(
                        invariant: .i8, cause: Self.suspendedTimerCause,
                        detail: "the Rust side wrote \(request.method) at \(entry.time.decimalSeconds) s while the app "
                            + "was suspended: nothing of a suspended app runs, its timers included, until iOS wakes it")
                )
            default: break
            }
        }
        return found
    }

    /// Follows one event: the app's state, and I9 for a processing launch into the foreground.
    private mutating func followed(_ event: RPCNotification, at time: VirtualTime, forcedLaunch: Bool) -> [Violation] {
        let params = event.params ?? .null
        switch event.method {
        case AppStateChangedEvent.name:
            if let change = try? AppStateChange(json: params) {
                appState = change.state
                suspendedAt = change.state == .suspended ? change.at : nil
            }
        case AppLaunchedEvent.name:
            if let p = try? AppLaunchedEvent.Params(json: params) {
                appState = p.cause == .user ? .foreground : .background
            }
        case AppTerminatedEvent.name:
            appState = .notRunning
        case TaskLaunchedEvent.name where appState == .foreground && !forcedLaunch:
            guard let p = try? TaskLaunchedEvent.Params(json: params), p.kind == .processing else { return [] }
            return [
                Violation(
                    invariant: .i9, cause: Self.foregroundLaunchCause,
                    detail: "iOS launched \(p.identifier) at \(time.decimalSeconds) s while the app was in the "
                        + "foreground; processing tasks are launched only once the user leaves the app")
            ]
        default: break
        }
        return []
    }
}

extension SystemAction {
    /// Whether the action is time passing (alone, or with an OS event at an invoke).
    var isTimePassing: Bool {
        if case .together(let during, _, _) = self { return during.isTimePassing }
        if case .advance = self { return true }
        return self == .advanceToNextDeadline
    }

    /// Whether the action is the developer's `os/launch` (alone, or at an invoke).
    var isForcedLaunch: Bool {
        if case .together(_, let os, _) = self { return os.isForcedLaunch }
        if case .launch = self { return true }
        return false
    }
}
