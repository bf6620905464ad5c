import Foundation
import HostProtocol
import PluginConformance
import PluginHost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `plugin-host conformance`: runs the catalogue against a plugin binary.
enum ConformanceCommand {
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
          --timeout S                   seconds a step may wait for its replies (default 10)
          --help                        this text

        Arguments after -- are added to every plugin command line. Exit status: 0 when no
        check fails (skipped and xfail do not fail), 1 when any fails or is stale, 64 on
        a usage error (a baseline that cannot be read included). See docs/conformance.md.
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
                ], flags: ["--help", "--list", "--openrpc"])
            if args.has("--help") {
                print(usage)
                return 0
            }
            if args.has("--openrpc") {
                print(OpenRPCDocument.prettyText, terminator: "")
                return 0
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
            print(list(checks, runs: runs, format: format), terminator: format == .markdown ? "" : "\n")
            return 0
        }
        guard !runs.isEmpty else {
            return HostCLI.usageError(
                "no check matches --filter \(args.value("--filter") ?? "") under --profile \(profiles.rawValue)",
                usage: usage)
        }
        let pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard FileManager.default.isExecutableFile(atPath: pluginPath) else {
            return HostCLI.pluginMissing(
                "conformance", path: pluginPath, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("conformance") { return checked }
        let plugin = PluginUnderTest(
            executable: pluginPath, extraArguments: args.passthrough,
            stepTimeout: .milliseconds(Int(timeout * 1000)))
        let showProgress = isatty(2) == 1
        var outcomes = ConformanceSuite(plugin: plugin, jobs: jobs).run(runs) { done, total, outcome in
            guard showProgress else { return }
            let line = "[\(done)/\(total)] \(outcome.status.rawValue) \(outcome.name) (\(outcome.profile.rawValue))"
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        }
        if let baseline { outcomes = baseline.apply(to: outcomes) }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        switch format {
        case .text, .markdown: print(ConformanceReport.text(outcomes, plugin: pluginPath))
        case .json: print(ConformanceReport.json(outcomes, plugin: pluginPath))
        case .junit: print(ConformanceReport.junit(outcomes, plugin: pluginPath), terminator: "")
        }
        let summary = ConformanceSummary(outcomes)
        if format != .text { HostCLI.diagnose("conformance", summary.line) }
        return summary.failed == 0 ? 0 : 1
    }

    /// Reads and checks an expected-failures file; any problem is a usage error.
    private static func readBaseline(_ path: String) throws(Arguments.UsageError) -> ExpectedFailures {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw Arguments.UsageError("--expected-failures: cannot read \(path)")
        }
        do {
            return try ExpectedFailures.parse(text, known: Set(ConformanceCatalogue.all.map(\.name)))
        } catch {
            throw Arguments.UsageError("--expected-failures \(path): \(error.description)")
        }
    }

    /// The catalogue as text (name, profiles, rule), JSON, or the Markdown of `docs/conformance.md`.
    private static func list(_ checks: [ConformanceCheck], runs: [(ConformanceCheck, Profile)], format: Format)
        -> String
    {
        switch format {
        case .markdown:
            return ConformanceCatalogueDoc.markdown(checks)
        case .json:
            return JSONValue.array(
                checks.map { c in
                    [
                        "name": .string(c.name), "section": .number(c.section), "rule": .string(c.rule),
                        "profiles": .array(c.profiles.map { .string($0.rawValue) }),
                        "flags": .array(c.flags.map { .string($0) }),
                        "requires": .array(c.requires.map { .string($0) }),
                        "accepts": .array(c.acceptance.map { .string($0) }),
                    ]
                }
            ).description
        case .text, .junit:  // junit is refused with --list; text stands in
            let width = checks.map(\.name.count).max() ?? 0
            var lines = checks.map { c in
                c.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + c.profiles.map(\.rawValue).joined(separator: ",").padding(
                        toLength: 11, withPad: " ", startingAt: 0) + "  " + c.rule
            }
            lines.append("\(checks.count) checks, \(runs.count) runs")
            return lines.joined(separator: "\n")
        }
    }
}
