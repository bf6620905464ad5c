import HostProtocol

extension PluginFuzzer.Finding {
    /// A paragraph saying what went wrong, for people.
    public var explanation: String {
        guard let mismatch = outcome.mismatch, let step = outcome.failingStep else {
            return "The plugin failed while running this sequence: \(outcome.error?.description ?? "unknown"). Shrunk from \(originalSteps) to \(steps.count) steps in \(shrinkAttempts) attempts."
        }
        let expected = mismatch.expected.map { $0.description } ?? "nothing more"
        let actual = mismatch.actual.map { $0.description } ?? "nothing more"
        var text = "At step \(step + 1) of \(steps.count) (\(steps[step].summary)), the reference model of the contract expected \(expected) but the plugin wrote \(actual)."
        if let e = mismatch.expected, let a = mismatch.actual {
            let paths = FrameComparison.differingPaths(e, a)
            if !paths.isEmpty { text += " They differ in \(paths.joined(separator: ", "))." }
        }
        text += " Error messages and plugin/state members outside the contract are not compared. The sequence was shrunk from \(originalSteps) to \(steps.count) steps in \(shrinkAttempts) attempts; each case starts from plugin/reset."
        return text
    }

    /// The finding as a trace file.
    public func trace(profile: Profile, seed: UInt64, pluginArguments: [String]) -> TraceFile {
        let header = TraceFile.Header(
            level: "plugin", profile: profile, seed: seed, finding: signature, explanation: explanation,
            pluginArguments: pluginArguments, extra: ["caseSeed": .number(JSONNumber(literal: String(caseSeed))!)])
        var lines: [JSONValue] = []
        for (i, step) in steps.enumerated() {
            lines.append([
                "kind": "step", "index": .number(i), "send": step.json,
                "expected": .array(i < outcome.expected.count ? outcome.expected[i] : []),
                "actual": .array(i < outcome.actual.count ? outcome.actual[i] : []),
            ])
        }
        return TraceFile(header: header, lines: lines)
    }
}
