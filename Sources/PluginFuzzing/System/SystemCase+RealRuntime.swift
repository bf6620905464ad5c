import HostProtocol
import RustSide

extension SystemCase.Outcome {
    /// How likely each race order this outcome took is on the real Rust runtime, one line
    /// per order (`stop-vs-completion completion-first: 0 of 1,400 trials on the real
    /// runtime`; `… not measured on the real runtime`), from the recorded races
    /// (``allRaces``), `ipc-vs-main` left out (the plugin's queues).
    public var realRuntime: [String] { RaceRecord.realRuntimeStatements(allRaces) }

    /// The same for machines, as a trace header's `realRuntime` member:
    /// `[{"race","order","seen","trials","statement"}]`, `seen` and `trials` null when not counted.
    public var realRuntimeJSON: JSONValue {
        var seen: Set<String> = []
        var out: [JSONValue] = []
        for r in allRaces where r.race != .ipcVsMain && seen.insert(r.order + r.race.rawValue).inserted {
            let m = r.race.realRuntime
            out.append([
                "race": .string(r.race.rawValue), "order": .string(r.order),
                "seen": m?.count(r.first).map { .number(JSONNumber($0)) } ?? .null,
                "trials": m?.trials.map { .number(JSONNumber($0)) } ?? .null,
                "statement": .string(r.race.realRuntimeStatement(r.first)),
            ])
        }
        return .array(out)
    }
}
