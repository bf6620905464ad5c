import HostProtocol

/// Swarm testing (issue 25; Groce et al., "Swarm Testing", ISSTA 2012): each case leaves out a
/// random part of the action alphabet, so that a case is made of a few kinds of action, each
/// drawn more often than the full alphabet would draw it. Findings that need several actions
/// of one or two kinds in a row (D3: a stop, starts, time; D7: many starts) come sooner; the
/// alphabet as a whole is still covered across cases.
///
/// Opt-in (`plugin-host fuzz --swarm`, `bench --findings --swarm`): without it the generator
/// draws exactly as before, so every seed gives the same cases.
extension SystemCaseGenerator {
    /// The kinds of action a swarm can leave out (the kinds of ``SystemAction``).
    enum ActionKind: Int, CaseIterable {
        case start, stop, launchRefresh, launchProcessing, expire, advance, conditions, terminate, openApp
        case policy, webview, background, together, mainThread

        /// The kind of `action`.
        init(_ action: SystemAction) {
            switch action {
            case .start: self = .start
            case .stop: self = .stop
            case .launch(let kind): self = kind == .refresh ? .launchRefresh : .launchProcessing
            case .expire: self = .expire
            case .advance, .advanceToNextDeadline: self = .advance
            case .conditions, .iosConditions: self = .conditions
            case .terminate: self = .terminate
            case .openApp: self = .openApp
            case .policy, .maxConcurrentTasks: self = .policy
            case .webviewCreated: self = .webview
            case .sendToBackground: self = .background
            case .together: self = .together
            case .blockMain, .onMainThread: self = .mainThread
            }
        }
    }

    /// The kinds a swarm case keeps: each with an even chance, `start` and `advance` always
    /// (without them no service runs and no time passes).
    mutating func swarmKinds() -> Set<ActionKind> {
        var kept: Set<ActionKind> = [.start, .advance]
        for kind in ActionKind.allCases where rng.chance(0.5) { kept.insert(kind) }
        return kept
    }

    /// Actions as ``actions(max:ios:tauri:)`` draws them, each redrawn (up to 50 times) until
    /// its kind is one of `kinds`.
    mutating func swarmActions(max: Int, ios: Bool, tauri: Bool, kinds: Set<ActionKind>) -> [SystemAction] {
        (0..<(3 + rng.below(Swift.max(1, max - 2)))).map { _ in
            var action = oneAction(ios: ios, tauri: tauri)
            for _ in 0..<50 where !kinds.contains(ActionKind(action)) { action = oneAction(ios: ios, tauri: tauri) }
            return action
        }
    }
}
