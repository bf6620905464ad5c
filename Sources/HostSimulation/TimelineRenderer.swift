import HostProtocol
import RustSide

/// Turns a run's timeline into text for people, JSON for machines, or a Mermaid
/// sequence diagram.
public enum TimelineRenderer {
    /// `HH:MM:SS.mmm` of virtual time.
    public static func clock(_ t: VirtualTime) -> String {
        let totalMillis = t.nanoseconds / 1_000_000
        let ms = totalMillis % 1000
        let s = (totalMillis / 1000) % 60
        let m = (totalMillis / 60_000) % 60
        let h = totalMillis / 3_600_000
        func pad(_ n: Int64, _ w: Int) -> String {
            let d = String(n)
            return String(repeating: "0", count: max(0, w - d.count)) + d
        }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
    }

    /// One line per visible entry: time, who, what.
    public static func text(_ entries: [TimelineEntry]) -> String {
        entries.compactMap(line).joined(separator: "\n")
    }

    /// A visible entry as one line, `  HH:MM:SS.mmm  WHO             WHAT`; nil for a
    /// hidden one. Never cut, and safe for a terminal: whatever came from the plugin (a
    /// method name, an error message, a string in its params) has its control characters
    /// and bidi overrides escaped (``TerminalText``).
    public static func line(_ entry: TimelineEntry) -> String? {
        guard entry.isVisible else { return nil }
        let (who, what) = describe(entry.kind)
        let padded = who + String(repeating: " ", count: max(1, 16 - who.count))
        return "  \(clock(entry.time))  \(padded)\(what)"
    }

    /// Who and what, in words, on one line and safe for a terminal (``TerminalText``).
    package static func describe(_ kind: TimelineEntry.Kind) -> (String, String) {
        let (who, what) = words(kind)
        return (who, TerminalText.oneLine(what, limit: .max))
    }

    private static func words(_ kind: TimelineEntry.Kind) -> (String, String) {
        switch kind {
        case .note(let text): return ("--", text)
        case .stderr(let line): return ("plugin stderr", line)
        case .protocolError(let why): return ("protocol error", why)
        case .request(let r, let origin):
            let params = r.params.map { " " + $0.description } ?? ""
            return ("\(origin == .os ? "os" : origin.rawValue) → plugin", "#\(r.id) \(r.method)\(params)")
        case .response(let r, let origin):
            let to = origin == .os ? "os" : origin.rawValue
            switch r.outcome {
            case .success(let v): return ("plugin → \(to)", "#\(r.id) ok \(v)")
            case .failure(let e):
                let reason =
                    e.rejectReason.map { "rejected (\($0.rawValue))" } ?? "error \(e.code.rawValue) \(e.message)"
                return ("plugin → \(to)", "#\(r.id) \(reason)")
            }
        case .event(let n): return ("plugin event", "\(n.method) \(n.params?.description ?? "")")
        case .service(let event): return ("rust", describe(event))
        }
    }

    /// A service event in words.
    static func describe(_ event: ServiceEvent) -> String {
        switch event {
        case .startRequested(let g): "start run \(g)"
        case .startFailed(let g, let error): "start of run \(g) failed: \(error)"
        case .rolledBack(let g): "run \(g) rolled back"
        case .stateChanged(let g, let state): "run \(g): \(state.rawValue)"
        case .runEnded(let g, let success, let error, let current):
            "run \(g) ended: \(success ? "success" : error ?? "error")\(current ? "" : " (a newer run is current)")"
        case .completionCallback(let g, let success):
            "run \(g): completion callback → completeBgTask(success: \(success))"
        case .completionSkipped(let g): "run \(g): completion skipped (not the current run)"
        case .listenerArmed(let g): "run \(g): cancel listener armed"
        case .listenerQueued(let g, let busy):
            "run \(g): all \(busy) blocking threads are busy; its waitForCancel waits for one"
        case .listenerFinished(let g, let outcome): "run \(g): cancel listener \(outcome)"
        case .abandonedWaitAnswered(let g, let outcome):
            "run \(g): the waitForCancel its listener gave up on is answered (\(outcome)); nobody acts on it"
        case .stopRequested(let origin): "stop requested by \(origin)"
        case .stopIgnored(let origin, let reason): "stop by \(origin) ignored: \(reason)"
        case .stopFailed(let origin, let error): "stop by \(origin) failed: \(error)"
        case .stopKeepaliveFailed(let error): "stopKeepalive failed (logged): \(error)"
        case .keepaliveReleased(let g): "run \(g) ended on its own: releasing the keepalive"
        case .runFinished(let g): "run \(g): finished"
        }
    }

    /// The timeline as a JSON array (every entry, harness probes included).
    public static func json(_ entries: [TimelineEntry]) -> JSONValue {
        .array(
            entries.map { e in
                var o: [String: JSONValue] = ["time": e.time.json]
                switch e.kind {
                case .note(let t):
                    o["kind"] = "note"
                    o["text"] = .string(t)
                case .stderr(let t):
                    o["kind"] = "stderr"
                    o["text"] = .string(t)
                case .protocolError(let t):
                    o["kind"] = "protocolError"
                    o["text"] = .string(t)
                case .request(let r, let origin):
                    o["kind"] = "request"
                    o["from"] = .string(origin.rawValue)
                    o["message"] = r.json
                case .response(let r, let origin):
                    o["kind"] = "response"
                    o["to"] = .string(origin.rawValue)
                    o["message"] = r.json
                case .event(let n):
                    o["kind"] = "event"
                    o["message"] = n.json
                case .service(let s):
                    o["kind"] = "service"
                    o["text"] = .string(describe(s))
                }
                return .object(o)
            })
    }

    /// A Mermaid `sequenceDiagram` of the visible entries.
    public static func mermaid(_ entries: [TimelineEntry], title: String) -> String {
        var out = [
            "sequenceDiagram", "    title \(clean(title))", "    participant App", "    participant Rust as Rust side",
            "    participant Plugin as Swift plugin", "    participant OS as iOS (emulated)",
        ]
        for e in entries where e.isVisible {
            let t = clock(e.time)
            switch e.kind {
            case .note(let text): out.append("    Note over App,OS: \(t) \(clean(text))")
            case .stderr: continue
            case .protocolError(let why): out.append("    Note over Plugin: \(t) protocol error: \(clean(why))")
            case .request(let r, let origin):
                out.append("    \(origin == .os ? "OS" : "Rust")->>Plugin: \(t) \(clean(r.method))")
            case .response(let r, let origin):
                let what: String
                switch r.outcome {
                case .success: what = "ok"
                case .failure(let e):
                    what = e.rejectReason.map { "rejected \($0.rawValue)" } ?? "error \(e.code.rawValue)"
                }
                out.append("    Plugin-->>\(origin == .os ? "OS" : "Rust"): \(clean(what))")
            case .event(let n):
                out.append("    Note right of Plugin: \(clean(n.method))")
            case .service(let s):
                out.append("    Note over Rust: \(clean(describe(s)))")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Text for a diagram line: on one line, control characters and bidi overrides
    /// escaped (the file may be shown on a terminal), Mermaid's own punctuation blanked.
    private static func clean(_ s: String) -> String {
        String(TerminalText.oneLine(s, limit: 1024).map { ";#{}<>".contains($0) ? " " : $0 })
    }
}
