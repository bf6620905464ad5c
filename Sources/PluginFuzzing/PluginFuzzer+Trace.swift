import HostProtocol

extension PluginFuzzer.Finding {
    /// A paragraph saying what went wrong, for people.
    public var explanation: String {
        let shrunk =
            "The sequence was shrunk from \(originalSteps) to \(steps.count) steps in \(shrinkAttempts) attempts"
        if let race = outcome.violations.first(where: { $0.signature == signature }) {
            return raceExplanation(race) + " \(shrunk); each case starts from plugin/reset."
        }
        guard let mismatch = outcome.mismatch, let step = outcome.failingStep, step < steps.count else {
            let what = outcome.error.map { "the plugin failed while running it: \($0)" } ?? "it failed as \(signature)"
            return "This sequence of \(steps.count) steps: \(what). \(shrunk)."
        }
        let expected = mismatch.expected.map { $0.description } ?? "nothing more"
        let actual = mismatch.actual.map { $0.description } ?? "nothing more"
        var text =
            "At step \(step + 1) of \(steps.count) (\(steps[step].summary)), the reference model of the contract "
            + "expected \(expected) but the plugin wrote \(actual)."
        if let e = mismatch.expected, let a = mismatch.actual {
            let paths = FrameComparison.differingPaths(e, a)
            if !paths.isEmpty { text += " They differ in \(paths.joined(separator: ", "))." }
        }
        text +=
            " Error messages and plugin/state members outside the contract are not compared."
            + " \(shrunk); each case starts from plugin/reset."
        return text
    }

    /// What a race the plugin reported means (`--dispatch tauri`).
    private func raceExplanation(_ race: RaceViolation) -> String {
        let meaning: String
        switch race.rule {
        case "exactly-once":
            meaning =
                "a task was completed twice: both queues read the running task before either cleared it"
                + " (on iOS a second setTaskCompleted is an error)"
        case "invoke.never-answered":
            meaning =
                "a waitForCancel was stored after the expiration that should have resolved it had read that none"
                + " was pending, and its cleanup() let go of it: the caller waits forever"
        case "invoke.answered-once":
            meaning =
                "one invoke was answered twice: both queues read the pending waitForCancel before either cleared it"
        default:
            meaning = "the plugin broke the rule \(race.rule)"
        }
        let step = race.step < steps.count ? " (\(steps[race.step].summary))" : ""
        return "At step \(race.step + 1) of \(steps.count)\(step), the plugin under --dispatch tauri reported"
            + " os/violation \(race.rule): \(race.detail). A cross-queue race: \(meaning). The schedule in the trace"
            + " is the queue the plugin ran at each interleaving decision of the batch."
    }

    /// The finding as a trace file.
    public func trace(profile: Profile, seed: UInt64, pluginArguments: [String]) -> TraceFile {
        var extra: [String: JSONValue] = ["caseSeed": .number(JSONNumber(literal: String(caseSeed))!)]
        if dispatch == .tauri {
            extra["dispatch"] = .string(dispatch.rawValue)
            extra["violations"] = .array(
                outcome.violations.map {
                    ["step": .number($0.step), "rule": .string($0.rule), "detail": .string($0.detail)]
                })
        }
        let header = TraceFile.Header(
            level: "plugin", profile: profile, seed: seed, finding: signature, explanation: explanation,
            pluginArguments: pluginArguments, extra: extra)
        var lines: [JSONValue] = []
        for (i, step) in steps.enumerated() {
            var line: [String: JSONValue] = [
                "kind": "step", "index": .number(i), "send": step.json,
                "expected": .array(i < outcome.expected.count ? outcome.expected[i] : []),
                "actual": .array(i < outcome.actual.count ? outcome.actual[i] : []),
            ]
            if step.members != nil { line["schedule"] = .array(step.schedule.map { .string($0.rawValue) }) }
            if let from = outcome.unpredictableFrom, i >= from { line["predicted"] = false }
            lines.append(.object(line))
        }
        return TraceFile(header: header, lines: lines)
    }
}
