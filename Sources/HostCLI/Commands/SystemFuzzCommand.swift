import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host fuzz --level system`.
enum SystemFuzzCommand {
    /// The plugin's arguments; under `--os ios` the OS's seed is the run's (each job's plugin
    /// serves all its cases, reset between them, which restarts the OS's generator).
    static func pluginArguments(_ s: FuzzCommand.Settings) -> [String] {
        let os = s.os == .ios ? ["--os", "ios", "--os-seed", String(s.seed)] : []
        return ["--profile", s.profile.rawValue, "--clock", "virtual"] + os + FuzzCommand.dispatchArguments(s)
            + s.pluginArguments
    }

    static func run(_ s: FuzzCommand.Settings) -> Int32 {
        let args = pluginArguments(s)
        let progress = FuzzProgress()
        var configuration = SystemFuzzer.Configuration(
            plugin: PluginLocator.launcher(s.plugin, arguments: args),
            behaviour: s.profile == .strict ? .strict : .seed, seed: s.seed, runs: s.runs, seconds: s.seconds,
            maxSteps: s.depth, jobs: s.jobs, os: s.os, dispatch: s.dispatch,
            answerTimeout: FuzzCommand.answerTimeout(s))
        configuration.swarm = s.swarm
        configuration.clockBias = s.clockBias
        configuration.guided = s.guided
        let fuzzer = SystemFuzzer(configuration: configuration, progress: progress)
        let driven = FuzzCommand.drive(
            progress, run: fuzzer.run, soFar: { fuzzer.findings }, totals: { fuzzer.totals })
        let (findings, failure, elapsed, totals) = (driven.findings, driven.failure, driven.elapsed, fuzzer.totals)
        if let failure, failure.kind == .didNotStart { return FuzzCommand.report(failure) }
        let os = (s.os == .ios ? ", --os ios" : "") + (s.dispatch == .tauri ? ", --dispatch tauri" : "")
        let sides = s.profile == .strict ? "strict plugin, strict host" : "seed plugin, seed Rust side"
        let rate = Int(Double(totals.steps) / max(elapsed, 0.001))
        let days = String(format: "%.1f", fuzzer.simulatedSeconds / 86_400 / max(elapsed, 0.001))
        let search = s.searchOptions
        let kept = s.guided ? " (\(fuzzer.kept) kept by guided search)" : ""
        Console.out(
            "fuzz (system level\(os), profile \(s.profile.rawValue): \(sides), seed \(s.seed)\(search)): "
                + "\(totals.cases) cases\(kept), "
                + "\(totals.steps) steps in \(String(format: "%.1f", elapsed)) s (\(rate) steps/s, "
                + "\(days) simulated device-days/s)")
        if findings.isEmpty, failure == nil {
            let extra = s.os == .ios ? " and I1-I9" : ""
            Console.out("no findings: every invariant D1-D7\(extra) held after every step")
            return ExitCode.ok
        }
        if !findings.isEmpty { report(findings, settings: s, pluginArguments: args, timings: fuzzer.timings) }
        if let failure { return FuzzCommand.report(failure) }
        return ExitCode.failed
    }

    /// Writes each finding's trace and prints the findings, grouped by invariant.
    static func report(
        _ findings: [SystemFuzzer.Finding], settings s: FuzzCommand.Settings, pluginArguments args: [String],
        timings: [String: FindingTiming]
    ) {
        let byInvariant = Dictionary(grouping: findings) { $0.violation?.invariant.rawValue ?? "other" }
        Console.out("\(FuzzProgress.count(findings.count, "finding")), by invariant:")
        var n = 0
        for key in byInvariant.keys.sorted() {
            let group = byInvariant[key]!
            let statement = group.first?.violation?.invariant.statement ?? ""
            let first = group.compactMap { timings[$0.signature]?.foundAfter }.min()
            Console.out(
                "\n\(key): \(statement)" + (first.map { String(format: " (first found after %.2f s)", $0) } ?? ""))
            for f in group {
                n += 1
                let name = "system-\(n)-\(FuzzCommand.slug(f.signature)).jsonl"
                let path = FuzzCommand.write(
                    f.trace(profile: s.profile, seed: s.seed, pluginArguments: args), name: name, to: s.out)
                Console.out("  [\(n)] \(f.violation?.cause ?? f.signature)")
                Console.out(
                    "      case seed \(f.caseSeed), \(FuzzCommand.shrunk(f, timings[f.signature])); trace \(path)")
                for (i, a) in f.systemCase.actions.enumerated() { Console.out("      \(i + 1). \(a.summary)") }
                Console.out("      \(f.explanation)")
                for line in f.outcome.realRuntime { Console.out("      on the real runtime: \(line)") }
            }
        }
    }
}
