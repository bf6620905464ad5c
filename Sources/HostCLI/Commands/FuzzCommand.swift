import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host fuzz`: explores orderings of invokes, OS events and time.
enum FuzzCommand {
    static let usage = """
        usage: plugin-host fuzz [options] [-- plugin-args...]

        Explores orderings of invokes, OS events and time against a plugin binary.
        --level plugin: random step sequences, every reply compared with a reference
        model of the contract. --level system: the emulated Rust side (service manager,
        listener, a sample service with random timings) against the plugin on one virtual
        clock, with random OS events, blocking-pool sizes and race orders; the whole-system
        invariants D1-D7 (docs/fuzzing.md, "System level: the invariants") checked after
        every step. Every failure is shrunk to a minimal sequence and written to --out as a
        replayable trace (see plugin-host replay). A plugin that cannot start, or that
        hangs, ends, floods the host or writes junk, is no finding: the run stops and says
        so (exit 2 or 3), and no trace is written for it.

        options:
          --plugin PATH|builtin  plugin binary (default: background-service-plugin beside plugin-host);
                                 builtin: the plugin's engine in this process, no child process
          --level plugin|system  what to fuzz (default plugin)
          --profile seed|strict  plugin profile and host behaviour (default seed)
          --dispatch serial|tauri
                                 the plugin's dispatch (default serial); tauri: cases race invokes
                                 against OS events in batches, under schedules the fuzzer chooses
          --seed N               make the run reproducible (default: random, printed)
          --runs N               stop after N cases
          --time S               stop after S seconds (default 10 when --runs is not given): the whole run,
                                 shrinking and a hung plugin included, ends within S + 5 s
          --timeout S            how long one case's replies (plugin level, default 30) or one call's
                                 answer (system level, default 10) may take before the plugin counts as hung
          --depth N              most steps per case (default 30); with --exhaustive, the depth (default 4)
          --swarm                system level: swarm testing, each case leaves out a random part of the
                                 action alphabet (docs/fuzzing.md, "Swarm testing"); the same --seed with
                                 and without it gives other cases
          --clock-bias           system level: half the time steps go to the next deadline (a timer, a
                                 budget, the watchdog, the Rust side's) instead of by a drawn amount
                                 (docs/fuzzing.md, "Clock bias"); other cases for the same --seed
          --guided               system level: guided search, cases that reach a new abstract state of
                                 the plugin and the Rust side are kept and later cases made from them
                                 (docs/fuzzing.md, "Guided search"); other cases for the same --seed
          --exhaustive           every sequence up to --depth over a small alphabet (plugin level; no
                                 --seed, --runs, --time or --jobs)
          --os manual|ios        system level: the emulated OS told what to do (default), or acting on its
                                 own (the plugin under --os ios --os-seed SEED, reset between cases; the
                                 alphabet adds battery, Low Power Mode, device use, termination, opening
                                 the app, the policy and a new webview, and under --dispatch tauri the
                                 main thread; invariants I1-I9 are checked too)
          --jobs N               plugins (processes or engines) in parallel (default 1)
          --out DIR              where traces go (default fuzz-out; checked before the run)
          --help                 this text

        Progress goes to stderr (redrawn on a terminal, a line every 10 s otherwise).

        exit status: 0 nothing found, 1 findings, 2 the plugin did not start (its stderr shown),
        3 the plugin failed during the run (hung, ended, flooded the host, wrote junk or wrote
        outside a step; its stderr shown), 64 usage error
        """

    /// The names of the system level's search options that are on (["swarm", "guided"]).
    static func searchOptions(swarm: Bool, clockBias: Bool, guided: Bool) -> [String] {
        [(swarm, "swarm"), (clockBias, "clock bias"), (guided, "guided")].filter(\.0).map(\.1)
    }

    struct Settings {
        var plugin = ""
        var level = "plugin"
        var profile = Profile.seed
        var dispatch = DispatchMode.serial
        var seed: UInt64 = 0
        var runs: Int?
        var seconds = 10.0
        var depth = 30
        var exhaustive = false
        /// `--swarm` (system level).
        var swarm = false
        /// `--clock-bias` (system level).
        var clockBias = false
        /// `--guided` (system level).
        var guided = false
        var jobs = 1
        var out = "fuzz-out"
        var pluginArguments: [String] = []
        var os = OSMode.manual
        /// `--timeout`: nil for the level's default.
        var timeout: Double?
        /// Whether `--plugin` was given (a missing one is then a usage error).
        var pluginGiven = false

        /// The search options given, as the header and the summary name them (", swarm, guided").
        var searchOptions: String {
            FuzzCommand.searchOptions(swarm: swarm, clockBias: clockBias, guided: guided).map { ", \($0)" }.joined()
        }
    }

    /// What the run will do, printed first: the limits of a random run, or the depth
    /// and alphabet of an exhaustive one (no seed or time applies to it).
    static func header(_ s: Settings) -> String {
        if s.exhaustive {
            var letters = ExhaustiveExplorer.Letter.allCases.map(\.rawValue)
            if s.dispatch == .tauri { letters += ExhaustiveExplorer.RaceLetter.allCases.map(\.rawValue) }
            return "exhaustive, profile \(s.profile.rawValue), dispatch \(s.dispatch.rawValue), every sequence up "
                + "to depth \(s.depth) over \(letters.count) letters (\(letters.joined(separator: " "))), plugin "
                + "\(s.plugin)"
        }
        let limit = s.runs.map { "\($0) cases" } ?? "\(s.seconds) s"
        return "level \(s.level), profile \(s.profile.rawValue), dispatch \(s.dispatch.rawValue), seed \(s.seed), "
            + "\(limit), \(s.jobs) job(s)\(s.searchOptions), "
            + "plugin \(s.plugin)"
    }

    static func parse(_ arguments: [String]) throws(Arguments.UsageError) -> Settings? {
        let args = try Arguments(
            arguments,
            options: [
                "--plugin", "--level", "--profile", "--dispatch", "--seed", "--runs", "--time", "--depth", "--jobs",
                "--out", "--os", "--timeout",
            ],
            flags: ["--help", "--exhaustive", "--swarm", "--clock-bias", "--guided"])
        if args.has("--help") { return nil }
        guard args.positional.isEmpty else {
            throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
        }
        var s = Settings()
        s.plugin = PluginLocator.resolve(args.value("--plugin"))
        s.pluginGiven = args.value("--plugin") != nil
        s.level = args.string("--level", default: "plugin")
        guard ["plugin", "system"].contains(s.level) else {
            throw Arguments.UsageError("--level must be plugin or system, not \"\(s.level)\"")
        }
        s.profile = try args.choice("--profile", default: .seed)
        s.dispatch = try args.choice("--dispatch", default: .serial)
        s.seed = try args.uint64("--seed") ?? UInt64.random(in: 0...UInt64(UInt32.max))
        if args.value("--runs") != nil { s.runs = try args.int("--runs", default: 1, range: 1...100_000_000) }
        if args.value("--runs") != nil, args.value("--time") != nil {
            throw Arguments.UsageError("give --runs or --time, not both")
        }
        s.seconds = try args.double("--time", default: 10, range: 0.1...604_800)
        s.exhaustive = args.has("--exhaustive")
        s.depth = try args.int("--depth", default: s.exhaustive ? 4 : 30, range: 1...(s.exhaustive ? 12 : 10_000))
        s.jobs = try args.int("--jobs", default: 1, range: 1...64)
        s.out = args.string("--out", default: "fuzz-out")
        if args.value("--timeout") != nil { s.timeout = try args.double("--timeout", default: 30, range: 0.1...3600) }
        if s.exhaustive, s.level != "plugin" { throw Arguments.UsageError("--exhaustive is for --level plugin") }
        s.swarm = args.has("--swarm")
        if s.swarm, s.level != "system" { throw Arguments.UsageError("--swarm is for --level system") }
        s.clockBias = args.has("--clock-bias")
        if s.clockBias, s.level != "system" { throw Arguments.UsageError("--clock-bias is for --level system") }
        s.guided = args.has("--guided")
        if s.guided, s.level != "system" { throw Arguments.UsageError("--guided is for --level system") }
        for option in ["--seed", "--runs", "--time", "--jobs"] where s.exhaustive && args.value(option) != nil {
            throw Arguments.UsageError("\(option) does not apply to --exhaustive (every sequence, one plugin)")
        }
        s.os = try args.choice("--os", default: .manual)
        if s.os == .ios, s.level != "system" { throw Arguments.UsageError("--os ios is for --level system") }
        if s.os == .simulator { throw Arguments.UsageError("--os must be manual or ios (simulator runs nothing)") }
        s.pluginArguments = args.passthrough
        // Last: every other mistake is named first; this one needs the file system.
        if let problem = outputProblem(s.out) { throw Arguments.UsageError(problem) }
        return s
    }

    static func run(_ arguments: [String]) -> Int32 {
        let settings: Settings
        do throws(Arguments.UsageError) {
            guard let s = try parse(arguments) else {
                print(usage)
                return ExitCode.ok
            }
            settings = s
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        guard PluginLocator.isAvailable(settings.plugin) else {
            return HostCLI.pluginMissing(
                "fuzz", path: settings.plugin, explicit: settings.pluginGiven, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("fuzz") { return checked }
        HostCLI.diagnose("fuzz", header(settings))
        switch (settings.level, settings.exhaustive) {
        case ("plugin", true): return ExhaustiveCommand.run(settings)
        case ("plugin", false): return runPluginLevel(settings)
        default: return SystemFuzzCommand.run(settings)
        }
    }

    static func pluginArguments(_ s: Settings) -> [String] {
        ["--profile", s.profile.rawValue, "--clock", "virtual", "--events"] + dispatchArguments(s) + s.pluginArguments
    }

    /// `--dispatch tauri` passed on to the plugin (serial, its default, is not written).
    static func dispatchArguments(_ s: Settings) -> [String] {
        s.dispatch == .serial ? [] : ["--dispatch", s.dispatch.rawValue]
    }

    static func runPluginLevel(_ s: Settings) -> Int32 {
        let args = pluginArguments(s)
        let progress = FuzzProgress()
        let fuzzer = PluginFuzzer(
            configuration: .init(
                plugin: PluginLocator.launcher(s.plugin, arguments: args), profile: s.profile, seed: s.seed,
                runs: s.runs, seconds: s.seconds, maxSteps: s.depth, jobs: s.jobs, dispatch: s.dispatch,
                replyTimeout: replyTimeout(s)),
            progress: progress)
        let driven = drive(progress, run: fuzzer.run, soFar: { fuzzer.findings }, totals: { fuzzer.totals })
        let (findings, failure, elapsed, totals) = (driven.findings, driven.failure, driven.elapsed, fuzzer.totals)
        if let failure, failure.kind == .didNotStart { return report(failure) }
        Console.out(
            "fuzz (plugin level, profile \(s.profile.rawValue), dispatch \(s.dispatch.rawValue), seed \(s.seed)):"
                + " \(totals.cases) cases, \(totals.steps) steps in \(String(format: "%.1f", elapsed)) s"
                + " (\(Int(Double(totals.steps) / max(elapsed, 0.001))) steps/s)")
        if findings.isEmpty, failure == nil {
            Console.out(
                s.dispatch == .tauri && s.profile == .seed
                    ? "no findings: no os/violation, and every reply the model could predict agreed with it"
                    : "no findings: every reply agreed with the reference model")
            return ExitCode.ok
        }
        if !findings.isEmpty {
            Console.out(
                "\(FuzzProgress.count(findings.count, "finding")), grouped by what differed from the model or what "
                    + "the plugin reported:")
        }
        let timings = fuzzer.timings
        for (i, f) in findings.enumerated() {
            let name = "plugin-\(i + 1)-\(slug(f.signature)).jsonl"
            report(f, number: i + 1, name: name, settings: s, pluginArguments: args, timing: timings[f.signature])
        }
        if let failure { return report(failure) }
        return ExitCode.failed
    }

    /// "found after 1.2 s, shrunk in 0.3 s: 30 → 4 steps" (without the times when not known).
    static func shrunk(_ f: some FuzzFinding, _ timing: FindingTiming?) -> String {
        let steps = "\(f.originalSteps) → \(f.shrunkSteps) steps"
        guard let timing else { return "shrunk \(steps)" }
        return String(format: "found after %.2f s, shrunk in %.2f s: ", timing.foundAfter, timing.shrinkSeconds) + steps
    }

    /// Writes a finding's trace into `directory`; returns its path, or "(not written)"
    /// after saying why on stderr.
    static func write(_ trace: TraceFile, name: String, to directory: String) -> String {
        do {
            return try trace.write(to: directory, name: name)
        } catch {
            HostCLI.diagnose("fuzz", "cannot write \(name): \(error.localizedDescription)")
            return "(not written)"
        }
    }

    /// Writes a plugin-level finding's trace and prints it.
    static func report(
        _ f: PluginFuzzer.Finding, number: Int, name: String, settings s: Settings, pluginArguments: [String],
        timing: FindingTiming? = nil
    ) {
        let path = write(
            f.trace(profile: s.profile, seed: s.seed, pluginArguments: pluginArguments), name: name, to: s.out)
        let kind = f.outcome.violations.isEmpty ? "model agreement" : "cross-queue race"
        Console.out("\n  [\(number)] \(kind): \(f.signature)")
        let origin = f.caseSeed == 0 ? "" : "case seed \(f.caseSeed), "
        Console.out("      \(origin)\(shrunk(f, timing)); trace \(path)")
        for (n, step) in f.steps.enumerated() { Console.out("      \(n + 1). \(step.summary)") }
        Console.out("      \(f.explanation)")
    }

    /// A file-name-safe short form of a signature.
    static func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        var out = String(mapped)
        while out.contains("--") { out = out.replacingOccurrences(of: "--", with: "-") }
        let short = String(out.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(60))
        return short.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
}
