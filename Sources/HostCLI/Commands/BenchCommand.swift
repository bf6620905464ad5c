import Foundation
import HostProtocol
import PluginBench
import PluginFuzzing
import PluginHost

/// `plugin-host bench`.
enum BenchCommand {
    static let usage = """
        usage: plugin-host bench [options]

        Measures, in one run: two floors, a C pipe echo (bench-floor: two C processes
        placed like host and plugin) and a Swift echo (the plugin binary's --echo), of a
        request-sized line; sequential invoke round trips (cancelCancelListener with
        nothing pending, completeBgTask) through the blocking and the async API; pipelined
        throughput with 1, 16 and 256 in flight, floors and invokes; startup (spawn to the
        initialize reply); the plugin's memory after 10,000 and 1,000,000 invokes;
        plugin-level fuzzing speed; and how many simulated device-days per wall second the
        system level covers under --os ios (realistic days: 15-minute refresh requests, a
        processing request for the night, services of random run lengths, the default
        safety timer), through the plugin binary and the built-in engine, with 1 and 2
        jobs. Floors and invokes run in interleaved blocks; every latency and throughput
        is printed as a ratio to both floors, with the targets.
        Build with -c release for meaningful figures.

        Every measurement runs in --rounds rounds (default 3), round after round: the
        table shown is the round with the median sequential p50 / C floor, followed by
        every figure's minimum, median and maximum over the rounds, the load average
        and busy CPUs before and after the run, and the CPUs the host and the plugin
        were allowed and last ran on in each round. A warning goes to stderr when the
        machine is busy (1-minute load average >= 0.5, or other work taking >= 0.25 CPU
        in a 0.5 s sample before or after the run: on 2 CPUs that is the host's or the
        plugin's CPU taken part of the time) or when the rounds' sequential ratios are
        more than 20 % apart. docs/benchmarks.md says why runs disagree.

        Every reply is checked: a frame that is not the answer expected (an event nobody
        asked for, an unknown id, a second answer, a line that is not JSON) stops the run,
        and so does a block that takes longer than --timeout. Each stage says on stderr
        what it measures, and how long it took.

        options:
          --plugin PATH        plugin binary (default: background-service-plugin beside plugin-host)
          --c-floor PATH       the C floor's program (default: bench-floor beside plugin-host)
          --pin                both processes on CPU 0 (sched_setaffinity)
          --free               let the scheduler place them (figures may be bimodal)
                               (default: the host on CPU 0, the plugin on CPU 1)
          --json               print the results as JSON
          --calls N            timed round trips per latency figure (default 20000)
          --rounds N           rounds of every measurement, 1 to 100 (default 3)
          --fuzz-seconds S     how long to measure fuzzing (default 10; 0 skips it)
          --system-seconds S   how long to play realistic device days at the system level
                               under --os ios, for each of the plugin binary and the
                               built-in engine with 1 and 2 jobs (default 10; 0 skips it);
                               a case started before the time is up is played to its end
                               (7 days; 1 with --quick)
          --timeout SECONDS    the longest one measured block may wait for the plugin: a
                               block of round trips or pipelined lines, one startup,
                               100,000 invokes of the memory figure (default 30)
          --quick              small counts and 1-day cases, for a smoke test of a few
                               seconds (figures are not meaningful)
          --help               this text

        --findings measures the fuzzer's finding power instead: for each of --os manual
        and ios, --dispatch serial and tauri (seed plugin, seed Rust side, one job), the
        system-level fuzzer runs --seeds seeds (default 10; seeds 1 to N) for
        --finding-seconds each (default 10); per finding seen in any run, in how many seeds
        it was found, the median over all seeds and the worst time to first finding (from
        the run's start to the end of the first case that showed it; a seed that missed it
        counts as longer than the cap: "> S"). Options: --plugin (default builtin), --seeds,
        --finding-seconds, --swarm (the fuzzer's swarm testing), --clock-bias (its clock
        bias), --guided (its guided search), --json. It takes
        4 x seeds x S seconds; exit 3 when the plugin failed in a run (the other runs still
        count).

        exit status: 0 measured; 1 the C floor or a setting is missing; 2 the plugin did not
        start (its stderr is shown); 3 the plugin broke the transport (a reply that is not the
        one expected, silence past --timeout, flooding, a frame over 16 MiB, an exit mid-run);
        64 usage error
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--findings") { return runFindings(arguments) }
        let args: Arguments
        var settings: BenchRunner.Settings
        var fuzzSeconds = 10.0
        var systemSeconds = 10.0
        var days = 7
        var rounds = 3
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments,
                options: [
                    "--plugin", "--c-floor", "--calls", "--fuzz-seconds", "--system-seconds", "--timeout", "--rounds",
                ],
                flags: ["--help", "--pin", "--free", "--json", "--quick"])
            if args.has("--help") {
                Console.out(usage)
                return ExitCode.ok
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            settings = BenchRunner.Settings(
                plugin: PluginLocator.resolve(args.value("--plugin")),
                cFloor: PluginLocator.resolve(args.value("--c-floor"), default: "bench-floor"))
            if args.has("--quick") {
                settings.calls = 500
                settings.warmup = 100
                settings.pipelined = 5_000
                settings.startups = 5
                settings.memoryInvokes = [1_000, 10_000]
                fuzzSeconds = 1
                systemSeconds = 1
                days = 1
            }
            settings.calls = try args.int("--calls", default: settings.calls, range: 100...10_000_000)
            rounds = try args.int("--rounds", default: rounds, range: 1...100)
            guard !(args.has("--pin") && args.has("--free")) else {
                throw Arguments.UsageError("give --pin or --free, not both")
            }
            settings.placement =
                args.has("--pin") ? .pinned : args.has("--free") || ProcReader.cpuCount < 2 ? .free : .split
            fuzzSeconds = try args.double("--fuzz-seconds", default: fuzzSeconds, range: 0...3600)
            systemSeconds = try args.double("--system-seconds", default: systemSeconds, range: 0...3600)
            let timeout = try args.double("--timeout", default: 30, range: 0.1...86_400)
            settings.timeout = .milliseconds(Int((timeout * 1000).rounded()))
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        guard PluginLocator.isAvailable(settings.plugin), settings.plugin != PluginLocator.builtin else {
            return HostCLI.pluginMissing(
                "bench", path: settings.plugin, explicit: args.value("--plugin") != nil, usage: usage)
        }
        guard PluginLocator.isAvailable(settings.cFloor), settings.cFloor != PluginLocator.builtin else {
            if args.value("--c-floor") != nil {
                return HostCLI.usageError("--c-floor: no executable C floor at \(settings.cFloor)", usage: usage)
            }
            HostCLI.diagnose("bench", "no executable C floor at \(settings.cFloor) (swift build builds bench-floor)")
            return ExitCode.failed
        }
        if let checked = HostCLI.stopAfterCheckingArguments("bench") { return checked }
        if settings.placement != .free, !ProcReader.pinToCPU(0) {
            HostCLI.diagnose("bench: sched_setaffinity failed; the scheduler places the processes")
            settings.placement = .free
        }
        let runner = BenchRunner(settings: settings)
        let stages = BenchStages { HostCLI.diagnose($0) }
        do throws(HostError) {
            let before = MachineState.sample()
            let early = BenchRounds.warnings(
                before: before, after: MachineState(cpus: 0, load: [], busyCPUs: nil), key: nil)
            for warning in early { HostCLI.diagnose("bench", "warning: \(warning)") }
            var reports: [BenchReport] = []
            for round in 1...rounds {
                stages.round = rounds > 1 ? "round \(round) of \(rounds): " : ""
                if settings.placement != .free { _ = ProcReader.pinToCPU(0) }
                var report = try measure(runner, stages: stages, fuzzSeconds: fuzzSeconds)
                if systemSeconds > 0 {
                    _ = ProcReader.allowAllCPUs()
                    report.simulatedTime = systemLevel(
                        plugin: settings.plugin, seconds: systemSeconds, days: days, stages: stages)
                }
                reports.append(report)
            }
            let result = BenchRounds(reports: reports, before: before, after: MachineState.sample())
            for warning in result.warnings where !early.contains(warning) {
                HostCLI.diagnose("bench", "warning: \(warning)")
            }
            if args.has("--json") { Console.json(result.json) } else { Console.out(result.text) }
            reportStderr(runner.stderr)
            return ExitCode.ok
        } catch {
            // Whatever the plugin did, nothing it started is left behind.
            PluginProcess.killAllStarted()
            let waiting = error.code == .timedOut ? "" : " (waiting for \(runner.waiting.current))"
            HostCLI.diagnose("bench", "while measuring \(stages.current)\(waiting): \(error.description)")
            // A plugin that did not start has had its stderr shown with the error.
            if error.code != .launchFailed { reportStderr(runner.stderr) }
            return ExitCode.status(for: error)
        }
    }

    /// Every stage up to the plugin-level fuzzing, each announced and timed on stderr.
    static func measure(_ runner: BenchRunner, stages: BenchStages, fuzzSeconds: Double) throws(HostError)
        -> BenchReport
    {
        let settings = runner.settings
        var processCPUs: [ProcessCPU] = []
        let (sequential, pipelined) = try stages.run(
            "floors (C and Swift echo) and sequential invokes, then pipelined, interleaved"
        ) { () throws(HostError) in
            let subjects = try runner.startSubjects()
            var failed = true
            defer { subjects.close(failed: failed) }
            let sequential = try runner.sequential(subjects)
            processCPUs = subjects.processCPUs()
            var pipelined: [BenchRunner.Pipelined] = []
            for window in [1, 16, 256] {
                let total = window == 1 ? min(settings.pipelined, settings.calls) : settings.pipelined
                pipelined.append(try runner.pipelined(subjects, window: window, total: total))
            }
            failed = false
            return (sequential, pipelined)
        }
        let asyncCall = try stages.run("async API (\(settings.calls / 4) round trips)") { () throws(HostError) in
            try runner.asyncInvoke()
        }
        let startup = try stages.run("startup (\(settings.startups) starts)") { () throws(HostError) in
            try runner.startup()
        }
        let counts = settings.memoryInvokes.sorted().map { OutputMeter.count($0) }.joined(separator: " and ")
        let memory = try stages.run("memory after \(counts) invokes") { () throws(HostError) in try runner.memory() }
        var fuzz: (Double, Int, Int)?
        if fuzzSeconds > 0 {
            fuzz = try stages.run("plugin-level fuzzing for \(fuzzSeconds) s, 2 jobs") { () throws(HostError) in
                // Fuzzing runs two jobs on both CPUs, wherever the scheduler puts them.
                _ = ProcReader.allowAllCPUs()
                let fuzzer = PluginFuzzer(
                    configuration: .init(
                        plugin: .init(executable: settings.plugin, arguments: ["--events"]), profile: .seed, seed: 1,
                        runs: nil, seconds: fuzzSeconds, maxSteps: 30, jobs: 2),
                    progress: FuzzProgress(quiet: true))
                let started = Date()
                do {
                    _ = try fuzzer.run()
                } catch let failure as PluginFailure where failure.kind == .didNotStart {
                    throw HostError.launchFailed("plugin-level fuzzing: \(failure)")
                } catch {
                    throw HostError.protocolError("plugin-level fuzzing: \(error)")
                }
                return (Date().timeIntervalSince(started), 2, fuzzer.totals.steps)
            }
        }
        var report = BenchReport(
            placement: settings.placement, build: BuildInfo.configuration, sequential: sequential,
            asyncCall: asyncCall, pipelined: pipelined, startup: startup, memory: memory, fuzz: fuzz)
        report.processCPUs = processCPUs
        return report
    }
}

extension BenchCommand {
    /// What the plugins wrote on stderr (not shown as it came): how much, and its first line.
    static func reportStderr(_ stderr: PluginStderr) {
        guard stderr.count > 0, let first = stderr.lines.first else { return }
        HostCLI.diagnose(
            "bench",
            "the plugins wrote \(OutputMeter.count(stderr.count)) line(s) on stderr, not shown; the first: "
                + TerminalText.oneLine(first, limit: 200))
    }
}

/// The system-level figures: simulated device-days per wall second.
extension BenchCommand {
    /// Plays realistic device days (`DeviceDays`) under `--os ios` for `seconds` each through
    /// the plugin binary and the built-in engine, with 1 and 2 jobs.
    static func systemLevel(plugin: String, seconds: Double, days: Int, stages: BenchStages) -> [SimulatedTimeFigure] {
        let arguments = ["--profile", "seed", "--clock", "virtual", "--os", "ios", "--os-seed", "1"]
        var figures: [SimulatedTimeFigure] = []
        for (name, path) in [("process", plugin), ("builtin", PluginLocator.builtin)] {
            for jobs in [1, 2] {
                let what =
                    "system level under --os ios, realistic device days: \(name), \(jobs) job(s), cases of "
                    + "\(days) day\(days == 1 ? "" : "s") started for \(seconds) s, each played to its end"
                let speed = stages.run(what) {
                    SystemFuzzer.measureDeviceDays(
                        .init(
                            plugin: PluginLocator.launcher(path, arguments: arguments), behaviour: .seed, seed: 1,
                            runs: nil, seconds: seconds, maxSteps: 0, jobs: jobs, os: .ios), days: days)
                }
                figures.append(
                    SimulatedTimeFigure(
                        plugin: name, jobs: jobs, seconds: speed.seconds, cases: speed.cases, steps: speed.steps,
                        simulatedSeconds: speed.simulatedSeconds, failedRuns: speed.failedRuns))
            }
        }
        return figures
    }
}
