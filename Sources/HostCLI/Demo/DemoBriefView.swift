import HostProtocol
import HostSimulation
import PluginHost

/// The demo's timeline for people, by default: the narration and what it is about (the
/// service's starts, stops and completions; tasks launched, expired and completed; the
/// safety timer firing; the app's processes; violations, error answers and protocol
/// errors), each on one short line. `--full` shows every message instead
/// (``TimelineRenderer/line(_:)``). A run of more than ``runShown`` events of one
/// method is cut to its first ones and a count, so that a flooding plugin gives a
/// short view.
enum DemoBriefView {
    /// How many events of one method in a row are shown before the rest are counted.
    static let runShown = 3

    /// The lines, in order.
    static func lines(_ entries: [TimelineEntry]) -> [String] {
        var out: [String] = []
        var run: (method: String, count: Int, last: VirtualTime)?
        func endRun() {
            if let r = run, r.count > runShown {
                out.append(row(r.last, "plugin event", "… \(OutputMeter.count(r.count - runShown)) more \(r.method)"))
            }
            run = nil
        }
        for e in entries {
            guard let (who, what) = brief(e.kind) else { continue }
            if case .event(let n) = e.kind {
                let method = TerminalText.oneLine(n.method, limit: 200)
                if run?.method == method {
                    run!.count += 1
                    run!.last = e.time
                    if run!.count > runShown { continue }
                } else {
                    endRun()
                    run = (method, 1, e.time)
                }
            } else {
                endRun()
            }
            out.append(row(e.time, who, what))
        }
        endRun()
        return out
    }

    /// `  HH:MM:SS.mmm  WHO             WHAT`, as the full timeline has it.
    static func row(_ time: VirtualTime, _ who: String, _ what: String) -> String {
        "  \(TimelineRenderer.clock(time))  \(who)\(String(repeating: " ", count: max(1, 16 - who.count)))"
            + TerminalText.oneLine(what, limit: .max)
    }

    /// Who and what for an entry the brief view shows; nil for the others.
    private static func brief(_ kind: TimelineEntry.Kind) -> (String, String)? {
        switch kind {
        case .note, .protocolError: return TimelineRenderer.describe(kind)
        case .service(let s):
            switch s {
            case .startRequested, .startFailed, .stopRequested, .stopFailed, .stopIgnored, .completionCallback,
                .keepaliveReleased, .stopKeepaliveFailed:
                return TimelineRenderer.describe(kind)
            default: return nil
            }
        case .response(let r, _):
            guard case .failure(let e) = r.outcome, e.rejectReason == nil else { return nil }
            return TimelineRenderer.describe(kind)
        case .event(let n): return event(n).map { ("plugin event", $0) }
        case .request, .stderr: return nil
        }
    }

    private static func event(_ n: RPCNotification) -> String? {
        let p = n.params
        let identifier = p?["identifier"]?.stringValue ?? "?"
        switch n.method {
        case TaskLaunchedEvent.name:
            return "\(n.method) \(identifier)" + (p?["kind"]?.stringValue.map { " (\($0))" } ?? "")
        case TaskExpiredEvent.name:
            return "\(n.method) \(identifier)" + (p?["cause"]?.stringValue.map { " (\($0))" } ?? "")
        case TaskCompletedEvent.name:
            let success = p?["success"]?.boolValue
            return "\(n.method) \(identifier): " + (success == true ? "success" : success == false ? "failure" : "?")
        case SafetyTimerEvent.name:
            guard p?["state"]?.stringValue == SafetyTimerEvent.State.fired.rawValue else { return nil }
            return "\(n.method) fired"
        case ViolationEvent.name, AppTerminatedEvent.name, AppLaunchedEvent.name, SubmitFailedEvent.name:
            return "\(n.method) \(p?.description ?? "")"
        default:
            // Events no plugin under the contract sends: shown, so that they are seen.
            let known = MethodRegistry.events + MethodRegistry.iosEvents
            return known.contains(n.method) ? nil : "\(n.method) \(p?.description ?? "")"
        }
    }
}
