import Foundation
import HostTestSupport
import Testing

/// One way to say a command line is wrong, across subcommands: `plugin-host SUBCOMMAND:
/// MESSAGE` and where the usage is, exit 64; a file named on the command line that is
/// not there is a usage error everywhere.
@Suite("plugin-host usage and file errors")
struct CommandLineErrorTests {
    /// The two lines of a usage error, and nothing on stdout.
    func expectUsageError(_ arguments: [String], mentioning text: String) async throws {
        let r = try await runHost(arguments)
        let sub = arguments.first.map { " " + $0 } ?? ""
        #expect(r.status == 64, "\(arguments): \(r.status) \(r.stderr)")
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(arguments): \(r.stderr)")
        #expect(lines.first?.hasPrefix("plugin-host\(sub): ") == true, "\(arguments): \(r.stderr)")
        #expect(lines.first?.contains(text) == true, "\(arguments): \(r.stderr)")
        #expect(lines.dropFirst().first == "see `plugin-host\(sub) --help`", "\(arguments): \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: [
        (["demo", "--plugin", "/nonexistent/plugin"], "no executable plugin at /nonexistent/plugin"),
        (["fuzz", "--plugin", "/nonexistent/plugin"], "no executable plugin at /nonexistent/plugin"),
        (["conformance", "--plugin", "/nonexistent/plugin"], "no executable plugin at /nonexistent/plugin"),
        (["explain", "--plugin", "/nonexistent/plugin"], "no executable plugin at /nonexistent/plugin"),
        (
            ["soak", "--plugin", "/nonexistent/plugin", "--invokes", "10"],
            "no executable plugin at /nonexistent/plugin"
        ),
        (["explain", "--script", "/nonexistent/script"], "cannot read /nonexistent/script"),
        (["conformance", "--expected-failures", "/nonexistent/known.yml"], "cannot read /nonexistent/known.yml"),
        (["replay", "/nonexistent/trace.jsonl"], "cannot read /nonexistent/trace.jsonl"),
    ])
    func aMissingFileIsAUsageError(arguments: [String], message: String) async throws {
        try await expectUsageError(arguments, mentioning: message)
        let r = try await runHost(arguments)
        #expect(!r.stderr.contains("swift build"), "no build hint for a path the user gave")
    }

    @Test(arguments: [
        (["demo", "--bogus"], "unknown option \"--bogus\""),
        (["fuzz", "--level", "galaxy"], "--level must be plugin or system"),
        (["fuzz", "--level", "system", "--os", "simulator"], "--os must be manual or ios (simulator runs nothing)"),
        (["replay"], "give exactly one trace file"),
        (["explain", "extra"], "unexpected argument \"extra\""),
        (["conformance", "--list", "--format", "junit"], "--format junit reports a run"),
        (["fuzz", "--exhaustive", "--time", "5"], "--time does not apply to --exhaustive"),
        (["fuzz", "--swarm"], "--swarm is for --level system"),
        (["fuzz", "--guided"], "--guided is for --level system"),
    ])
    func aBadCommandLineIsOneLine(arguments: [String], message: String) async throws {
        try await expectUsageError(arguments, mentioning: message)
    }

    @Test func theTopLevelToo() async throws {
        let r = try await runHost(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr == "plugin-host: unknown subcommand \"frobnicate\"\nsee `plugin-host --help`\n")
    }

    /// `--mermaid` into a directory that does not exist fails before the day is played.
    @Test func demoChecksItsMermaidFileFirst() async throws {
        try await expectUsageError(
            ["demo", "--mermaid", "/nonexistent/x.mmd"], mentioning: "--mermaid: cannot write /nonexistent/x.mmd")
    }

    /// The exhaustive run's header gives its depth and alphabet, not a seed and a time.
    @Test func exhaustiveHeaderDescribesTheRun() async throws {
        let r = try await runHost(["fuzz", "--plugin", Binaries.plugin, "--exhaustive", "--depth", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let header = r.stderr.split(separator: "\n").first ?? ""
        #expect(
            header.hasPrefix(
                "plugin-host fuzz: exhaustive, profile seed, dispatch serial, every sequence up to depth 2 over 13 "
                    + "letters (start "))
        #expect(!header.contains("seed ") || header.contains("profile seed"))
        #expect(!header.contains(" s,") && !header.contains("job"))
    }

    /// The demo runs against the engine in this process too (same timeline, no child process).
    @Test func demoRunsBuiltin() async throws {
        let builtin = try await runHost(["demo", "--plugin", "builtin", "--json"])
        let binary = try await runHost(["demo", "--plugin", Binaries.plugin, "--json"])
        #expect(builtin.status == 0, "\(builtin.stderr)")
        let strip = { (s: String) in
            s.replacingOccurrences(of: #""plugin":"[^"]*""#, with: "", options: .regularExpression)
        }
        #expect(strip(builtin.stdout) == strip(binary.stdout))
    }
}
