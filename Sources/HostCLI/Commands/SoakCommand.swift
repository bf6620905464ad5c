import Foundation
import HostProtocol
import PluginHost
import PluginSoak

/// `plugin-host soak`: one plugin process under a long load, its memory watched.
package enum SoakCommand {
    static let usage = """
        usage: plugin-host soak [options] [-- plugin-args...]

        Runs many invokes and fuzz cases against ONE plugin process and watches it:
        the plugin's and the host's resident memory (VmRSS) are sampled after each
        round, and after the warm-up rounds neither may grow by more than
        --growth-limit-kb. At the end
        the host's pending-call table must be empty, the plugin must hold no pending
        waitForCancel after a reset, and ids it answered long ago must not still be
        registered as pending (a sample of them is reused). Then it measures fault
        latency: for each of SIGKILL, SIGTERM and exit-mid-frame with calls pending
        (time until the host has failed them all), stdin closed and stdout closed (time
        until the plugin exits 0), --fault-trials fresh plugins each.

        The invokes are three scripted cycles (every invoke; launch and complete,
        launch and expire, launch and the safety timer), pipelined, every answer
        checked. A fuzz case is a plugin/reset, 1 to 30 random steps of the fuzzer's
        generator, sometimes malformed frames, and a plugin/state barrier.

        options:
          --plugin PATH          plugin binary (default: background-service-plugin beside plugin-host)
          --invokes N            invokes in all (default 1000000)
          --fuzz-cases N         fuzz cases in all (default 100000)
          --rounds N             memory samples, one per round (default 10)
          --warmup-rounds N      rounds before the growth baseline (default 2)
          --growth-limit-kb N    allowed VmRSS growth after the warm-up (default 1024)
          --window N             invokes in flight (default 64)
          --seed N               fuzz seed (default 1)
          --fault-trials N       trials per fault kind (default 20; 0 skips them)
          --fault-budget-ms X    promised latency: p99 above it fails the soak (default 100)
          --json                 print the report as JSON
          --help                 this text

        Progress goes to stderr, the report to stdout.
        exit status: 0 within limits, 1 growth, leaks, wrong answers, faults over budget or errors, 64 usage error
        """

    static func parse(_ arguments: [String]) throws(Arguments.UsageError) -> (SoakRunner.Settings, json: Bool)? {
        let args = try Arguments(
            arguments,
            options: [
                "--plugin", "--invokes", "--fuzz-cases", "--rounds", "--warmup-rounds", "--growth-limit-kb", "--window", "--seed",
                "--fault-trials", "--fault-budget-ms",
            ],
            flags: ["--help", "--json"])
        if args.has("--help") { return nil }
        guard args.positional.isEmpty else { throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"") }
        var s = SoakRunner.Settings(plugin: PluginLocator.resolve(args.value("--plugin")))
        s.invokes = try args.int("--invokes", default: 1_000_000, range: 0...1_000_000_000)
        s.fuzzCases = try args.int("--fuzz-cases", default: 100_000, range: 0...100_000_000)
        s.rounds = try args.int("--rounds", default: 10, range: 1...10_000)
        s.warmUpRounds = try args.int("--warmup-rounds", default: 2, range: 0...10_000)
        guard s.warmUpRounds < s.rounds else { throw Arguments.UsageError("--warmup-rounds must be less than --rounds") }
        s.growthLimitKB = try args.int("--growth-limit-kb", default: 1024, range: 0...100_000_000)
        s.window = try args.int("--window", default: 64, range: 1...100_000)
        s.seed = try args.uint64("--seed") ?? 1
        s.faultTrials = try args.int("--fault-trials", default: 20, range: 0...100_000)
        s.faultBudgetMs = try args.double("--fault-budget-ms", default: 100, range: 0.001...3_600_000)
        s.pluginArguments = args.passthrough
        return (s, args.has("--json"))
    }

    static func run(_ arguments: [String]) -> Int32 {
        let settings: SoakRunner.Settings
        let json: Bool
        do throws(Arguments.UsageError) {
            guard let parsed = try parse(arguments) else {
                print(usage)
                return 0
            }
            (settings, json) = parsed
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        guard FileManager.default.isExecutableFile(atPath: settings.plugin) else {
            HostCLI.diagnose("soak: no executable plugin at \(settings.plugin) (build it with swift build, or pass --plugin)")
            return 1
        }
        HostCLI.diagnose("soak: \(settings.invokes) invokes, \(settings.fuzzCases) fuzz cases, \(settings.rounds) rounds (\(settings.warmUpRounds) warm-up), plugin \(settings.plugin)")
        let runner = SoakRunner(settings: settings, progress: { HostCLI.diagnose($0) })
        let report = runner.run()
        let verdict = judge(report, settings)
        print(json ? jsonReport(report, settings, verdict: verdict) : textReport(report, settings, verdict: verdict))
        return verdict.isEmpty ? 0 : 1
    }

    /// Why the soak failed; empty when it passed.
    package static func judge(_ r: SoakRunner.Report, _ s: SoakRunner.Settings) -> [String] {
        var why: [String] = []
        if let error = r.error { why.append(error) }
        let growth = r.growth(warmUpRounds: s.warmUpRounds)
        if growth > s.growthLimitKB { why.append("plugin VmRSS grew by \(growth) KiB after the warm-up (limit \(s.growthLimitKB) KiB)") }
        let hostGrowth = r.hostGrowth(warmUpRounds: s.warmUpRounds)
        if hostGrowth > s.growthLimitKB { why.append("host VmRSS grew by \(hostGrowth) KiB after the warm-up (limit \(s.growthLimitKB) KiB)") }
        if r.invokeMismatches > 0 { why.append("\(r.invokeMismatches) invoke answers differed from the script: \(r.firstMismatches)") }
        if r.fuzzViolations > 0 { why.append("\(r.fuzzViolations) fuzz-case violations: \(r.firstViolations)") }
        for f in r.faults {
            if !f.failures.isEmpty { why.append("fault \(f.kind.rawValue): \(f.failures.count) trials failed: \(f.failures.prefix(2))") }
            if !f.noticed.sorted.isEmpty, f.noticed.p99 > s.faultBudgetMs {
                why.append(String(format: "fault %@: p99 %.1f ms over the %.0f ms budget", f.kind.rawValue, f.noticed.p99, s.faultBudgetMs))
            }
        }
        return why
    }

    static func textReport(_ r: SoakRunner.Report, _ s: SoakRunner.Settings, verdict: [String]) -> String {
        var lines = ["soak: \(s.invokes) invokes, \(s.fuzzCases) fuzz cases against one plugin process (\(s.plugin))", ""]
        lines.append("round   invokes  requests  fuzz cases  seconds  plugin RSS KiB  plugin peak KiB  host RSS KiB  host pending")
        for x in r.samples {
            lines.append(String(
                format: "%5d %9d %9d %11d %8.1f %15d %16d %13d %13d%@", x.round, x.invokes, x.requests, x.fuzzCases, x.seconds, x.plugin.rss, x.plugin.peak,
                x.host.rss, x.hostPending, x.round == s.warmUpRounds ? "   <- baseline (end of warm-up)" : ""))
        }
        lines.append("")
        if s.warmUpRounds > 0, r.samples.count > s.warmUpRounds {
            let base = r.samples[s.warmUpRounds - 1].plugin.rss
            let last = r.samples.last!.plugin.rss
            lines.append("plugin VmRSS after warm-up: \(base) KiB; at the end: \(last) KiB; largest growth: \(r.growth(warmUpRounds: s.warmUpRounds)) KiB (limit \(s.growthLimitKB) KiB)")
            let hostBase = r.samples[s.warmUpRounds - 1].host.rss
            lines.append("host VmRSS after warm-up: \(hostBase) KiB; at the end: \(r.samples.last!.host.rss) KiB; largest growth: \(r.hostGrowth(warmUpRounds: s.warmUpRounds)) KiB (limit \(s.growthLimitKB) KiB)")
        }
        lines.append("invoke answers differing from the script: \(r.invokeMismatches); fuzz-case violations: \(r.fuzzViolations)")
        lines.append("pending at the end: host \(r.hostPendingAtEnd); plugin \(r.pluginPendingAtEnd); old ids still pending in the plugin: \(r.leakedPluginIDs) of \(r.probedIDs) probed")
        if !r.faults.isEmpty {
            lines.append("")
            lines.append("fault latency (ms)    trials     p50     p99     max   reaped p99   measures")
            for f in r.faults {
                let name = f.kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                lines.append(name + String(
                    format: " %9d %7.2f %7.2f %7.2f %12.2f   %@", f.noticed.sorted.count, f.noticed.p50, f.noticed.p99, f.noticed.max,
                    f.reaped.p99, f.kind.measures))
            }
        }
        lines.append("")
        lines.append(verdict.isEmpty ? "PASS" : "FAIL:\n  " + verdict.joined(separator: "\n  "))
        return lines.joined(separator: "\n")
    }

    static func jsonReport(_ r: SoakRunner.Report, _ s: SoakRunner.Settings, verdict: [String]) -> String {
        let samples: [JSONValue] = r.samples.map { x in
            [
                "round": .number(x.round), "invokes": .number(x.invokes), "requests": .number(x.requests), "fuzzCases": .number(x.fuzzCases),
                "seconds": .number(x.seconds), "pluginRSSKiB": .number(x.plugin.rss), "pluginPeakKiB": .number(x.plugin.peak),
                "hostRSSKiB": .number(x.host.rss), "hostPending": .number(x.hostPending),
            ]
        }
        let faults: [JSONValue] = r.faults.map { f in
            [
                "kind": .string(f.kind.rawValue), "trials": .number(f.noticed.sorted.count), "p50Ms": .number(f.noticed.p50),
                "p99Ms": .number(f.noticed.p99), "maxMs": .number(f.noticed.max), "reapedP99Ms": .number(f.reaped.p99),
                "failures": .array(f.failures.map { .string($0) }),
            ]
        }
        let value: JSONValue = [
            "invokes": .number(s.invokes), "fuzzCases": .number(s.fuzzCases), "warmUpRounds": .number(s.warmUpRounds),
            
            "growthKiB": .number(r.growth(warmUpRounds: s.warmUpRounds)), "hostGrowthKiB": .number(r.hostGrowth(warmUpRounds: s.warmUpRounds)),
            "growthLimitKiB": .number(s.growthLimitKB),
            "samples": .array(samples), "invokeMismatches": .number(r.invokeMismatches), "fuzzViolations": .number(r.fuzzViolations),
            "hostPendingAtEnd": .number(r.hostPendingAtEnd), "pluginPendingAtEnd": .string(r.pluginPendingAtEnd),
            "leakedPluginIDs": .number(r.leakedPluginIDs), "probedIDs": .number(r.probedIDs), "faults": .array(faults),
            "pass": .bool(verdict.isEmpty), "failures": .array(verdict.map { .string($0) }),
        ]
        return value.description
    }
}
