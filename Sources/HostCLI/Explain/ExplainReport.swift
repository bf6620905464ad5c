import HostProtocol
import HostSimulation
import PluginHost

/// How `plugin-host explain` prints `os/explain`'s answers: for people, per
/// identifier its status, each reason's `detail` (already in clock times), and when
/// it could next run; for machines, the answers themselves.
enum ExplainReport {
    /// The answers for people, at virtual time `now`; each line safe for a terminal
    /// (an identifier or a reason's detail from the plugin has its controls escaped).
    static func text(now: VirtualTime, answers: [LaunchExplanation]) -> String {
        var lines = ["at \(clock(now)):"]
        for a in answers {
            lines.append("  \(a.identifier): \(status(a))")
            for r in a.reasons { lines.append("    - \(r.detail)") }
            if a.status == .pending { lines.append("    next possible: \(next(a, now: now))") }
        }
        return lines.map { TerminalText.oneLine($0, limit: .max) }.joined(separator: "\n")
    }

    /// The answers for machines: `{"now", "explanations"}`.
    static func json(now: VirtualTime, answers: [LaunchExplanation]) -> JSONValue {
        ["now": now.json, "explanations": .array(answers.map(\.json))]
    }

    private static func status(_ a: LaunchExplanation) -> String {
        switch a.status {
        case .running: "running now"
        case .notPending: "not pending (nothing submitted)"
        case .pending: a.reasons.isEmpty ? "pending, nothing holds it back" : "pending, not running because:"
        }
    }

    private static func next(_ a: LaunchExplanation, now: VirtualTime) -> String {
        guard let at = a.nextPossibleAt else {
            return "not by the clock alone: a condition above must change first"
        }
        if at <= now { return "now (it launches as time next advances)" }
        let wait = VirtualTime(nanoseconds: at.nanoseconds - now.nanoseconds)
        return "\(clock(at)) (t=\(at.decimalSeconds) s, in \(wait.decimalSeconds) s)"
    }

    /// A time of day on the virtual clock (its 0 is midnight of day 0), with the day past day 0.
    static func clock(_ t: VirtualTime) -> String {
        let day = t.nanoseconds / 86_400_000_000_000
        let inDay = VirtualTime(nanoseconds: t.nanoseconds % 86_400_000_000_000)
        let text = String(TimelineRenderer.clock(inDay).prefix(8))
        return day > 0 ? "day \(day) \(text)" : text
    }
}
