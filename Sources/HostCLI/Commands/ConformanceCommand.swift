import Foundation
import HostProtocol
import PluginConformance
import PluginHost
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `plugin-host conformance`: runs the catalogue against a plugin binary.
enum ConformanceCommand {
    private static let l = PluginUnderTest.defaultLimits
    private typealias Limit = OutputMeter
    static let usage = """
        usage: plugin-host conformance [options] [-- plugin-args...]

        Runs the conformance catalogue (one check per rule of sections 1 to 6 of the
        contract) against a plugin binary: any executable that speaks the contract. Each
        check starts a fresh plugin, sends its script, validates every frame against the
        OpenRPC document and matches the replies the contract fixes, in order (members
        it does not name are allowed). Prints pass, FAIL, skip (an extension the plugin
        does not offer) or xfail per check and profile, and for each failure the
        messages sent, the expected and actual replies and a diff.

        options:
          --plugin PATH                 plugin binary (default: background-service-plugin beside plugin-host)
          --profile seed|strict|both    run the checks under these profiles (default both)
          --filter PATTERN              only checks whose name contains PATTERN (or matches a * glob)
          --format text|json|junit      output format (default text); with --list: text|json|markdown
          --expected-failures FILE      a baseline (YAML or JSON) of checks expected to fail: they
                                        report xfail; a listed check that passes is stale and fails
          --list                        print the catalogue instead of running it
          --openrpc                     print the OpenRPC document the replies are validated against
          --jobs N                      checks run at once (default \(ConformanceSuite.defaultJobs))
          --timeout S                   seconds one check may take in one plugin process, every wait
                                        included (default 10; the slowest check takes about 0.2 s)
          --fail-fast                   stop after the first failing check (those running finish)
          --help                        this text

        Arguments after -- are added to every plugin command line. First the plugin is
        started once and sent one request: one that does not start is reported once,
        with its stderr. In a check, the suite holds at most one frame of \(Limit.size(l.maxFrameBytes)),
        \(Limit.count(l.maxUnpromptedFrames)) frames or \(Limit.size(l.maxUnpromptedBytes)) written \
        without a request, \(Limit.count(l.maxHeldFrames)) frames or \(Limit.size(l.maxHeldBytes)) in all:
        past that the check fails as flooding and the plugin is stopped. Progress goes to
        stderr, terminal or not. Exit status: 0 when no check fails (skipped and xfail do
        not fail), 1 when any fails or is stale, 2 when the plugin does not start, 3 when
        it broke the transport (before the checks, or in a failing check: flooding,
        silent past --timeout, not reading, ended mid-check), 64 on a usage error (a
        baseline that cannot be read included). See docs/conformance.md.
        """

    private enum Format: String, CaseIterable { case text, json, junit, markdown }
    private enum ProfileChoice: String, CaseIterable { case seed, strict, both }

    static func run(_ arguments: [String]) -> Int32 {
        let args: Arguments
        let format: Format
        let profiles: ProfileChoice
        let jobs: Int
        let timeout: Double
        var baseline: ExpectedFailures?
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments,
                options: [
                    "--plugin", "--profile", "--filter", "--format", "--jobs", "--timeout", "--expected-failures",
                ], flags: ["--help", "--list", "--openrpc", "--fail-fast"])
            if args.has("--help") {
                print(usage)
                return ExitCode.ok
            }
            if args.has("--openrpc") {
                print(OpenRPCDocument.prettyText, terminator: "")
                return ExitCode.ok
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            format = try args.choice("--format", default: .text)
            if format == .markdown, !args.has("--list") {
                throw Arguments.UsageError("--format markdown is for --list only")
            }
            if format == .junit, args.has("--list") {
                throw Arguments.UsageError("--format junit reports a run; --list takes text, json or markdown")
            }
            profiles = try args.choice("--profile", default: .both)
            jobs = try args.int("--jobs", default: ConformanceSuite.defaultJobs, range: 1...256)
            timeout = try args.double("--timeout", default: 10, range: 0.1...3600)
            if let path = args.value("--expected-failures") { baseline = try readBaseline(path) }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let profile: Profile? = profiles == .both ? nil : Profile(rawValue: profiles.rawValue)
        let checks = ConformanceCatalogue.matching(args.value("--filter"))
        let runs = ConformanceCatalogue.runs(of: checks, profile: profile)
        if args.has("--list") {
            let listing = ConformanceCatalogue.listing(
                checks, runs: runs.count, format: ConformanceCatalogue.ListFormat(rawValue: format.rawValue) ?? .text)
            print(listing, terminator: format == .markdown ? "" : "\n")
            return ExitCode.ok
        }
        guard !runs.isEmpty else {
            return HostCLI.usageError(
                "no check matches --filter \(args.value("--filter") ?? "") under --profile \(profiles.rawValue)",
                usage: usage)
        }
        let pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(pluginPath), pluginPath != PluginLocator.builtin else {
            return HostCLI.pluginMissing(
                "conformance", path: pluginPath, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("conformance") { return checked }
        let plugin = PluginUnderTest(
            executable: pluginPath, extraArguments: args.passthrough, timeout: .milliseconds(Int(timeout * 1000)))
        let suite = ConformanceSuite(plugin: plugin, jobs: jobs)
        if let status = preflight(suite, plugin: pluginPath) { return status }
        let run = runChecks(
            suite, runs, baseline: baseline, failFast: args.has("--fail-fast"),
            start: ConformanceProgress.start(
                runs: runs.count, plugin: pluginPath, jobs: min(jobs, runs.count), timeout: seconds(timeout)))
        var outcomes = run.outcomes
        if let baseline { outcomes = baseline.apply(to: outcomes) }
        let stop = run.stoppedBecause.map { ConformanceReport.Stop(reason: $0, notRun: run.notRun) }
        switch format {
        case .text, .markdown: Console.out(ConformanceReport.text(outcomes, plugin: pluginPath, stopped: stop))
        case .json: Console.json(ConformanceReport.json(outcomes, plugin: pluginPath, stopped: stop))
        case .junit: Console.out(String(ConformanceReport.junit(outcomes, plugin: pluginPath).dropLast()))
        }
        let summary = ConformanceSummary(outcomes)
        if let stop { HostCLI.diagnose("conformance", stop.line) }
        if let breach = summary.breachLine { HostCLI.diagnose("conformance", breach) }
        if format != .text { HostCLI.diagnose("conformance", summary.line) }
        guard summary.failed > 0 else { return ExitCode.ok }
        return summary.breaches.isEmpty ? ExitCode.failed : ExitCode.pluginMisbehaved
    }

    /// Starts the plugin once before the checks: nil when it answered; otherwise the
    /// exit status, after one message and the end of its stderr.
    private static func preflight(_ suite: ConformanceSuite, plugin: String) -> Int32? {
        let (message, stderr, status): (String, String, Int32)
        switch suite.preflight() {
        case .ready: return nil
        case .didNotStart(let why, let tail): (message, stderr, status) = (why, tail, ExitCode.pluginDidNotStart)
        case .brokeTransport(let why, let tail): (message, stderr, status) = (why, tail, ExitCode.pluginMisbehaved)
        }
        HostCLI.diagnose("conformance", "\(plugin): \(message); no check was run")
        let lines = stderr.split(separator: "\n").suffix(20)
        HostCLI.diagnose(
            lines.isEmpty ? "  (the plugin wrote nothing on stderr)" : "  the plugin's stderr (last lines):")
        for line in lines { HostCLI.diagnose("    " + TerminalText.oneLine(String(line), limit: 400)) }
        return status
    }

    /// Runs the checks with progress on stderr, stopping at the first failure with `failFast`.
    private static func runChecks(
        _ suite: ConformanceSuite, _ runs: [(ConformanceCheck, Profile)], baseline: ExpectedFailures?,
        failFast: Bool, start: String
    ) -> ConformanceSuite.Run {
        let terminal = isatty(2) == 1
        let progress = Mutex(ConformanceProgress(total: runs.count, terminal: terminal))
        let clock = ContinuousClock()
        let started = clock.now
        HostCLI.diagnose("conformance", start)
        let judged: @Sendable (CheckOutcome) -> CheckOutcome = { baseline?.apply(to: [$0]).first ?? $0 }
        let run = suite.run(
            runs,
            progress: { _, _, outcome in
                guard let line = progress.withLock({ $0.record(judged(outcome), elapsed: clock.now - started) })
                else { return }
                if terminal {
                    Console.rawErr("\r\u{1B}[K" + TerminalText.oneLine(line, limit: 200))
                } else {
                    HostCLI.diagnose("conformance", line)
                }
            },
            stopWhen: { outcome in
                let status = judged(outcome).status
                guard failFast, status == .failed || status == .stale else { return nil }
                return
                    "--fail-fast: \(outcome.name) (\(outcome.profile.rawValue)) "
                    + (status == .stale ? "was stale" : "failed")
            })
        if terminal { Console.rawErr("\r\u{1B}[K") }
        return run
    }

    /// `10 s`, `0.5 s`.
    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// The largest expected-failures file read (a baseline of every check is a few KiB).
    private static let baselineLimit = 1 << 20

    /// Reads and checks an expected-failures file; any problem is a usage error.
    private static func readBaseline(_ path: String) throws(Arguments.UsageError) -> ExpectedFailures {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw Arguments.UsageError("--expected-failures: cannot read \(path)")
        }
        defer { try? handle.close() }
        // At most one byte past the limit is read: /dev/zero is refused, not read for ever.
        let data = (try? handle.read(upToCount: baselineLimit + 1)) ?? Data()
        guard data.count <= baselineLimit else {
            throw Arguments.UsageError(
                "--expected-failures \(path): larger than \(OutputMeter.size(baselineLimit)); not a baseline")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Arguments.UsageError("--expected-failures \(path): not UTF-8 text")
        }
        do {
            return try ExpectedFailures.parse(text, known: Set(ConformanceCatalogue.all.map(\.name)))
        } catch {
            throw Arguments.UsageError("--expected-failures \(path): \(error.description)")
        }
    }
}
