import HostProtocol
import HostSimulation
import PluginHost

/// The demos' narration of what happened, read from the timeline since a mark (the
/// plugin's events and the Rust side's steps), never assumed from the script: with other
/// timings, another profile or another OS seed, the words follow the run.
struct DemoStory {
    let sim: SystemSimulation
    private var mark: Int
    /// When the stretch began.
    private(set) var since: VirtualTime

    init(_ sim: SystemSimulation) {
        self.sim = sim
        mark = sim.timeline.count
        since = sim.now
    }

    /// Starts a new stretch: what is told next is what happens from now on.
    mutating func restart() {
        mark = sim.timeline.count
        since = sim.now
    }

    private var window: ArraySlice<TimelineEntry> {
        let all = sim.timeline
        return all[min(mark, all.count)...]
    }

    /// The plugin's events in the stretch, with their names.
    private var events: [RPCNotification] {
        window.compactMap { if case .event(let n) = $0.kind { n } else { nil } }
    }

    private func task(_ name: String, _ identifier: String) -> [TaskEventParams] {
        events.filter { $0.method == name }.compactMap { try? TaskEventParams(json: $0.params ?? .null) }
            .filter { $0.identifier == identifier }
    }

    /// "the refresh task" or "the processing task".
    func name(_ identifier: String) -> String {
        identifier == sim.refreshIdentifier ? "the refresh task" : "the processing task"
    }

    /// Identifiers launched in the stretch, in order.
    var launched: [String] {
        events.filter { $0.method == TaskLaunchedEvent.name }.compactMap { $0.params?["identifier"]?.stringValue }
    }

    /// When `identifier` was last launched in the stretch.
    func launchedAt(_ identifier: String) -> VirtualTime? { task(TaskLaunchedEvent.name, identifier).last?.at }

    /// The app's process's end in the stretch, if it ended.
    var termination: AppTerminatedEvent.Params? {
        events.filter { $0.method == AppTerminatedEvent.name }
            .compactMap { try? AppTerminatedEvent.Params(json: $0.params ?? .null) }.first
    }

    /// Whether `identifier` was launched in the stretch and has not been completed since.
    func isRunning(_ identifier: String) -> Bool {
        guard let launch = task(TaskLaunchedEvent.name, identifier).last else { return false }
        return !task(TaskCompletedEvent.name, identifier).contains { $0.at >= launch.at }
    }

    /// The cancel listeners that resolved in the stretch, with the run they stopped.
    private var resolvedListeners: [UInt64] {
        window.compactMap { if case .service(.listenerFinished(let g, "resolved")) = $0.kind { g } else { nil } }
    }

    /// What became of the last launch of `identifier` in the stretch, and what the Rust
    /// side did about it: a note of its own.
    func outcome(of identifier: String) -> String { Self.sentence(clause(identifier)) }

    /// The same, to go on a sentence (not capitalized).
    func clause(_ identifier: String) -> String {
        let what = name(identifier)
        guard let launch = task(TaskLaunchedEvent.name, identifier).last else {
            let deferred = events.filter { $0.method == LaunchDeferredEvent.name }
                .compactMap { try? LaunchDeferredEvent.Params(json: $0.params ?? .null) }
                .filter { $0.identifier == identifier }.last
            let why = deferred.map { ": deferred (" + $0.reasons.map(\.factor.rawValue).joined(separator: ", ") + ")" }
            return "iOS did not launch \(what)" + (why ?? "")
        }
        let after = { (t: VirtualTime) in "\(Self.seconds(from: launch.at, to: t)) after its launch" }
        let expired = task(TaskExpiredEvent.name, identifier).first { $0.at >= launch.at }
        let fired = events.filter { $0.method == SafetyTimerEvent.name }
            .compactMap { try? SafetyTimerEvent.Params(json: $0.params ?? .null) }
            .first { $0.state == .fired && $0.deadline >= launch.at }
        let completed = task(TaskCompletedEvent.name, identifier).first { $0.at >= launch.at }
        var parts: [String] = []
        if let expired, fired.map({ expired.at <= $0.deadline }) ?? true {
            let cause = expired.cause.map { " (\($0.rawValue))" } ?? ""
            parts.append("iOS expired \(what) \(after(expired.at))\(cause)")
        } else if let fired {
            parts.append("the safety timer fired \(after(fired.deadline))")
        } else if let completed {
            let ended = completed.success == true ? "finished in time" : "ended with an error"
            return "the sync \(ended): the Rust side completed \(what) with "
                + "\(completed.success == true ? "success" : "failure") \(after(completed.at))"
                + rescheduling(identifier, after: completed.at)
        } else {
            return "\(what) is still running, \(after(sim.now))"
        }
        if let run = resolvedListeners.first {
            parts.append("the cancel listener resolved and the Rust side stopped the service (run \(run))")
        } else {
            parts.append("no cancel listener was waiting, so no service run was stopped")
        }
        if let completed {
            parts.append(
                "\(what) was completed with \(completed.success == true ? "success" : "failure")"
                    + rescheduling(identifier, after: completed.at))
        }
        return parts.joined(separator: "; ")
    }

    /// `clause` as a sentence: its first letter capitalized (but "iOS" stays as it is).
    static func sentence(_ clause: String) -> String {
        clause.hasPrefix("iOS") ? clause : clause.prefix(1).uppercased() + clause.dropFirst()
    }

    /// " and rescheduled" or "; its request was then cancelled ...", from the last request
    /// event for `identifier` after `t`.
    private func rescheduling(_ identifier: String, after t: VirtualTime) -> String {
        let names = [RequestSubmittedEvent.name, RequestCancelledEvent.name]
        let last = window.drop { $0.time < t }.compactMap { e -> String? in
            guard case .event(let n) = e.kind, names.contains(n.method),
                n.params?["identifier"]?.stringValue == identifier
            else { return nil }
            return n.method
        }.last
        switch last {
        case RequestSubmittedEvent.name: return " and rescheduled"
        case RequestCancelledEvent.name: return "; its request was then cancelled (stopKeepalive)"
        default: return ""
        }
    }

    /// "28 s", "3.332 s", "0.0001 s": the time from `a` to `b`.
    static func seconds(from a: VirtualTime, to b: VirtualTime) -> String {
        VirtualTime(nanoseconds: b.nanoseconds - a.nanoseconds).decimalSeconds + " s"
    }
}
