import HostProtocol
import HostSimulation

/// What a simulated week got, read from the task events the plugin sent
/// (`os/taskLaunched`, `os/taskExpired`, `os/taskCompleted`) and the app's ends
/// (`os/appTerminated`), day by day and in total.
struct WeekTally {
    /// A task event seen.
    struct Seen {
        /// `launched`, `expired`, `completed` or `appTerminated`.
        var event: String
        /// The task's kind (none for `appTerminated`).
        var kind: TaskKind?
        var at: VirtualTime
        /// An expiration's cause, or the app's termination's reason.
        var cause: String?
    }

    /// One stretch's figures (a day, or the whole run).
    struct Figures {
        var launches: [TaskKind: Int] = [:]
        var expirations: [String: Int] = [:]
        var completions = 0
        /// The app's processes ended, by reason.
        var terminations: [String: Int] = [:]
        /// The longest time without a launch of each kind: from the stretch's start to the
        /// first launch, between launches, and from the last one to the stretch's end.
        var longestGap: [TaskKind: Double] = [:]
    }

    let seen: [Seen]
    let days: Int

    /// The events of `entries` before the end of the last day.
    init(_ entries: [TimelineEntry], days: Int, refreshIdentifier: String) {
        self.days = days
        let names = [
            TaskLaunchedEvent.name: "launched", TaskExpiredEvent.name: "expired", TaskCompletedEvent.name: "completed",
        ]
        let limit = Double(days) * WeekScenario.day
        seen = entries.compactMap { e in
            guard case .event(let n) = e.kind else { return nil }
            if n.method == AppTerminatedEvent.name, let p = try? AppTerminatedEvent.Params(json: n.params ?? .null),
                p.at.seconds < limit
            {
                return Seen(event: "appTerminated", kind: nil, at: p.at, cause: p.reason.rawValue)
            }
            guard let event = names[n.method],
                let p = try? TaskEventParams(json: n.params ?? .null),
                p.at.seconds < limit
            else { return nil }
            let kind = p.kind ?? (p.identifier == refreshIdentifier ? .refresh : .processing)
            return Seen(event: event, kind: kind, at: p.at, cause: p.cause?.rawValue)
        }
    }

    /// Day `day` (from 0), or the whole run for nil.
    func figures(day: Int?) -> Figures {
        let start = Double(day ?? 0) * WeekScenario.day
        let end = day.map { Double($0 + 1) * WeekScenario.day } ?? Double(days) * WeekScenario.day
        let inside = seen.filter { $0.at.seconds >= start && $0.at.seconds < end }
        var f = Figures()
        for s in inside {
            switch s.event {
            case "launched": f.launches[s.kind ?? .refresh, default: 0] += 1
            case "expired": f.expirations[s.cause ?? "unknown", default: 0] += 1
            case "appTerminated": f.terminations[s.cause ?? "unknown", default: 0] += 1
            default: f.completions += 1
            }
        }
        for kind in [TaskKind.refresh, .processing] {
            let times = inside.filter { $0.event == "launched" && $0.kind == kind }.map(\.at.seconds)
            let points = [start] + times + [end]
            f.longestGap[kind] = zip(points, points.dropFirst()).map { $1 - $0 }.max() ?? (end - start)
        }
        return f
    }

    /// `5h 07m`: a gap to the minute.
    static func hours(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        let m = String(minutes % 60)
        return "\(minutes / 60)h \(m.count == 1 ? "0" + m : m)m"
    }

    /// The table, a line a day and the totals.
    var text: String {
        let header = [
            "day", "refresh", "processing", "completed", "gap refresh", "gap processing", "expired (by cause)",
            "app ended (by reason)",
        ]
        var rows = [header]
        func row(_ label: String, _ f: Figures) -> [String] {
            func list(_ counts: [String: Int]) -> String {
                counts.isEmpty
                    ? "none"
                    : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                        .joined(separator: ", ")
            }
            return [
                label, String(f.launches[.refresh] ?? 0), String(f.launches[.processing] ?? 0), String(f.completions),
                Self.hours(f.longestGap[.refresh] ?? 0), Self.hours(f.longestGap[.processing] ?? 0),
                list(f.expirations), list(f.terminations),
            ]
        }
        for d in 0..<days { rows.append(row(String(d + 1), figures(day: d))) }
        rows.append(row("total", figures(day: nil)))
        let widths = (0..<header.count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { r in
            r.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 || c >= r.count - 2 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingSuffix()
        }.joined(separator: "\n")
    }

    /// A stretch's figures as JSON.
    static func json(_ f: Figures) -> JSONValue {
        func number(_ x: Double) -> JSONValue { .number(JSONNumber((x * 1000).rounded() / 1000)) }
        let expirations = JSONObject(f.expirations.mapValues { .number(JSONNumber($0)) })
        let terminations = JSONObject(f.terminations.mapValues { .number(JSONNumber($0)) })
        return .object([
            "launches": .object([
                "refresh": .number(JSONNumber(f.launches[.refresh] ?? 0)),
                "processing": .number(JSONNumber(f.launches[.processing] ?? 0)),
            ]),
            "expirations": .object(expirations), "appTerminations": .object(terminations),
            "completions": .number(JSONNumber(f.completions)),
            "longestGapSecs": .object([
                "refresh": number(f.longestGap[.refresh] ?? 0), "processing": number(f.longestGap[.processing] ?? 0),
            ]),
        ])
    }

    /// The events seen, as JSON: what the figures were counted from.
    var eventsJSON: JSONValue {
        .array(
            seen.map { s in
                var o: JSONObject = ["event": .string(s.event), "at": .number(JSONNumber(s.at.seconds))]
                if let k = s.kind { o["kind"] = .string(k.rawValue) }
                if let c = s.cause { o[s.kind == nil ? "reason" : "cause"] = .string(c) }
                return .object(o)
            })
    }
}

extension String {
    /// Without its trailing spaces.
    fileprivate func trimmingSuffix() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
