import Foundation
import HostProtocol
import PluginHost
import PluginSoak

/// `plugin-host soak`: one plugin process under a long load, its memory watched.
enum SoakCommand {
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
          --timeout SECONDS      the longest the soak waits for any one answer: the first, a
                                 barrier, the oldest invoke in flight (default 60)
          --json                 print the report as JSON
          --help                 this text

        Every answer is checked. A plugin that answers a request twice or with an id
        nobody sent, writes a frame that is not JSON-RPC or over 16 MiB, writes 100,000
        events without an answer between them, goes silent past --timeout or exits is
        stopped at once, and the soak fails without judging it. Its events are not kept,
        its stderr is counted, not shown (the first lines are, if it does not start).

        Progress goes to stderr, the report to stdout.
        exit status: 0 within limits; 1 growth, leaks, wrong answers, faults over budget or
        errors; 2 the plugin did not start (its stderr is shown); 3 the plugin broke the
        transport; 64 usage error
        """

    /// The settings, `--json`, and whether `--plugin` was given; nil for `--help`.
    static func parse(_ arguments: [String]) throws(Arguments.UsageError)
        -> (SoakRunner.Settings, json: Bool, pluginGiven: Bool)?
    {
        let args = try Arguments(
            arguments,
            options: [
                "--plugin", "--invokes", "--fuzz-cases", "--rounds", "--warmup-rounds", "--growth-limit-kb", "--window",
                "--seed",
                "--fault-trials", "--fault-budget-ms", "--timeout",
            ],
            flags: ["--help", "--json"])
        if args.has("--help") { return nil }
        guard args.positional.isEmpty else {
            throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
        }
        var s = SoakRunner.Settings(plugin: PluginLocator.resolve(args.value("--plugin")))
        s.invokes = try args.int("--invokes", default: 1_000_000, range: 0...1_000_000_000)
        s.fuzzCases = try args.int("--fuzz-cases", default: 100_000, range: 0...100_000_000)

        s.rounds = try args.int("--rounds", default: 10, range: 1...10_000)
        s.warmUpRounds = try args.int("--warmup-rounds", default: 2, range: 0...10_000)
        guard s.warmUpRounds < s.rounds else {
            throw Arguments.UsageError("--warmup-rounds must be less than --rounds")
        }
        // A round that serves nothing measures nothing: the baseline would be taken
        // before the plugin had done any work, and its start-up read as growth.
        guard max(s.invokes, s.fuzzCases) >= s.rounds else {
            throw Arguments.UsageError(
                "each of the \(s.rounds) rounds must serve something: give --invokes or --fuzz-cases of at least "
                    + "\(s.rounds), or fewer --rounds")
        }
        s.growthLimitKB = try args.int("--growth-limit-kb", default: 1024, range: 0...100_000_000)
        s.window = try args.int("--window", default: 64, range: 1...100_000)
        s.seed = try args.uint64("--seed") ?? 1
        s.faultTrials = try args.int("--fault-trials", default: 20, range: 0...100_000)
        s.faultBudgetMs = try args.double("--fault-budget-ms", default: 100, range: 0.001...3_600_000)
        let timeout = try args.double("--timeout", default: 60, range: 0.1...86_400)
        s.timeout = .milliseconds(Int((timeout * 1000).rounded()))
        s.pluginArguments = args.passthrough
        return (s, args.has("--json"), args.value("--plugin") != nil)
    }

    static func run(_ arguments: [String]) -> Int32 {
        let settings: SoakRunner.Settings
        let json: Bool
        let pluginGiven: Bool
        do throws(Arguments.UsageError) {
            guard let parsed = try parse(arguments) else {
                print(usage)
                return ExitCode.ok
            }
            (settings, json, pluginGiven) = parsed
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        guard PluginLocator.isAvailable(settings.plugin), settings.plugin != PluginLocator.builtin else {
            return HostCLI.pluginMissing("soak", path: settings.plugin, explicit: pluginGiven, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("soak") { return checked }
        HostCLI.diagnose(
            "soak",
            "\(settings.invokes) invokes, \(settings.fuzzCases) fuzz cases, \(settings.rounds) rounds "
                + "(\(settings.warmUpRounds) warm-up), plugin \(settings.plugin)")
        let runner = SoakRunner(settings: settings, progress: { HostCLI.diagnose($0) })
        let report = runner.run()
        let verdict = SoakRunner.judge(report, settings)
        if let failure = report.pluginFailure {
            HostCLI.diagnose(
                "soak",
                failure.kind == .didNotStart
                    ? "the plugin did not start: \(failure.detail)"
                    : "the plugin broke the transport: \(failure.detail)")
        }
        // JSON goes through Console's JSON escaping (the same value, no raw C1 or bidi).
        if json {
            Console.jsonText(SoakRunner.jsonReport(report, settings, verdict: verdict))
        } else {
            Console.out(SoakRunner.textReport(report, settings, verdict: verdict))
        }
        switch report.pluginFailure?.kind {
        case .didNotStart?: return ExitCode.pluginDidNotStart
        case .brokeTransport?: return ExitCode.pluginMisbehaved
        case nil: return verdict.isEmpty ? ExitCode.ok : ExitCode.failed
        }
    }
}
