import HostProtocol
import PluginHost
import RustSide

extension SystemFuzzer.Finding {
    /// The violation this finding is about.
    public var violation: Violation? { outcome.first(signature)?.violation }

    /// A paragraph for people: what the actions were, what broke, and why.
    public var explanation: String {
        guard let v = violation, let step = outcome.first(signature)?.step else {
            return "The run could not be completed: \(outcome.error ?? "unknown error")."
        }
        var text =
            "\(v.invariant.rawValue) (\(v.invariant.statement)) broke after step \(step + 1) of "
            + "\(systemCase.actions.count), \"\(systemCase.actions[step].summary)\": \(v.detail)."
        if let why = SystemFuzzer.Finding.diagnosis[v.cause] { text += " " + why }
        let races = outcome.allRaces.filter { $0.race != .ipcVsMain }
        if !races.isEmpty { text += " Races decided: " + races.map(\.description).joined(separator: "; ") + "." }
        let queues = outcome.allRaces.filter { $0.race == .ipcVsMain }.map { $0.first == .first ? "ipc" : "main" }
        if !queues.isEmpty {
            text += " The plugin's queues (ipc-vs-main, one decision each): " + queues.joined(separator: ",") + "."
        }
        if systemCase.scenario.blockingThreads != BlockingPool.tokioDefault {
            text += " Blocking pool: \(systemCase.scenario.blockingThreads) threads."
        }
        text += " Shrunk from \(originalSteps) to \(systemCase.actions.count) steps in \(shrinkAttempts) runs."
        return text
    }

    /// The known mechanisms behind each cause, as far as the fuzzer has seen them (docs/findings.md has more).
    static let diagnosis: [String: String] = [
        "a refresh task launched while no service runs is left running":
            "The Rust side keeps background launches scheduled after its service has ended (startKeepalive and "
            + "every completion resubmit both requests, and only stopKeepalive cancels them), so iOS can launch a "
            + "task when nothing runs: the task then holds the app awake until the safety timer or the OS ends it.",
        "a processing task launched while no service runs is left running":
            "The Rust side keeps background launches scheduled after its service has ended, so iOS can launch a "
            + "processing task when nothing runs; with no processing safety timer (the default) only the OS's "
            + "expiration ends it.",
        "the cancel listener of an earlier run (timed out) stopped the current run":
            "A run that ends before its cancel listener's waitForCancel is written (the race listener-vs-"
            + "completion, completion-first) leaves that invoke pending in the plugin; the next run's listener "
            + "replaces it (the seed plugin drops the old one unanswered), and when the old listener's timeout "
            + "passes it calls cancelCancelListener, which rejects whatever the plugin holds, the new listener's "
            + "invoke, and Stop, which stops the new run.",
        "the cancel listener of an earlier run (resolved) stopped the current run":
            "Once the blocking pool has run out, a new run's waitForCancel waits for a thread while an earlier "
            + "run's orphan invoke still holds one; an expiration or a safety timer resolves that orphan, and its "
            + "listener, still within its timeout, sends Stop, which stops the current run.",
        "a blocking thread waits on a waitForCancel the plugin no longer holds":
            "The seed plugin keeps one pending cancel invoke and drops the previous one without answering when a "
            + "new waitForCancel arrives; the blocking-pool thread that wrote the dropped one waits for an answer "
            + "that will never come. The listener's timeout only drops its handle, and its cancelCancelListener "
            + "rejects the newer invoke, not this one: the thread is leaked for the life of the process.",
        "the blocking pool ran out: a cancel listener cannot start":
            "Every dropped waitForCancel leaks one blocking-pool thread. Once all of them are leaked (512 with "
            + "tokio's default), spawn_blocking queues the next listener's waitForCancel until a thread frees, "
            + "which a leaked thread never does: the running service hears neither expiration nor the safety timer,"
            + " and its listener's timeout ends in a Stop.",
        "host and plugin disagree about the pending cancel listener":
            "The host has more cancel listeners waiting than the plugin holds invokes for, or the plugin holds a "
            + "waitForCancel that no listener waits for any more.",
        "the service runs through a background task without a cancel listener":
            "The running service has no listener waiting on a waitForCancel the plugin holds while a background "
            + "task is active, so the task's expiration or safety timer cannot reach it.",
    ]

    /// The finding as a trace file.
    public func trace(profile: Profile, seed: UInt64, pluginArguments: [String]) -> TraceFile {
        let header = TraceFile.Header(
            level: "system", profile: profile, seed: seed, finding: signature, explanation: explanation,
            pluginArguments: pluginArguments,
            extra: [
                "dispatch": .string(dispatch.rawValue),
                "caseSeed": .number(JSONNumber(literal: String(caseSeed))!), "scenario": systemCase.scenario.json,
                "realRuntime": outcome.realRuntimeJSON,
                "violations": .array(
                    outcome.violations.map {
                        [
                            "step": .number($0.step + 1), "invariant": .string($0.violation.invariant.rawValue),
                            "cause": .string($0.violation.cause), "detail": .string($0.violation.detail),
                        ]
                    }),
            ])
        var lines: [JSONValue] = []
        let timeline = outcome.timeline
        for (i, action) in systemCase.actions.enumerated() {
            let races = i < outcome.races.count ? outcome.races[i] : []
            lines.append([
                "kind": "step", "index": .number(i), "action": action.json,
                "races": .array(races.map(\.json)),
                "timeline": .array((i < timeline.count ? timeline[i] : []).map { .string($0) }),
            ])
        }
        return TraceFile(header: header, lines: lines)
    }
}

extension RaceRecord {
    /// `{"race": "listener-vs-completion", "run": 2, "order": "completion-first"}`.
    var json: JSONValue {
        var o: [String: JSONValue] = [
            "race": .string(race.rawValue), "run": run.map { .number(Int($0)) } ?? .null, "order": .string(order),
        ]
        if process > 1 { o["process"] = .number(process) }
        return .object(JSONObject(o))
    }
}
