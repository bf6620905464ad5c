import HostTestSupport
import Testing

/// Contract 7, the plugin's command line: --help, --version, usage errors (exit 64).
@Suite("command line")
struct CommandLineTests {
    /// `--help` prints the usage and exits 0 without serving.
    @Test(arguments: [["--help"], ["-h"], ["--profile", "strict", "--help"]])
    func help(arguments: [String]) throws {
        let run = try Plugin.run(arguments, [state(1)])
        #expect(run.status == 0)
        #expect(run.lines.first == "usage: background-service-plugin [options]")
        #expect(run.lines.contains { $0.contains("--max-frame-bytes N") })
        #expect(!run.lines.contains { $0.hasPrefix("{") }, "no request is served")
    }

    /// `--version` prints the name and version and exits 0.
    @Test func version() throws {
        let run = try Plugin.run(["--version"], [state(1)])
        #expect(run.status == 0)
        #expect(run.lines == ["background-service-plugin 0.1.0"])
    }

    /// An unknown flag or a bad value: the reason and the usage on stderr, nothing
    /// on stdout, exit 64.
    @Test(arguments: [
        (["--frobnicate"], #"unknown option "--frobnicate""#),
        (["extra"], #"unknown option "extra""#),
        (["--clock", "sundial"], #"--clock must be virtual or real, not "sundial""#),
        (["--clock"], "--clock needs a value"),
        (["--profile", "lenient"], #"--profile must be seed or strict, not "lenient""#),
        (["--framing", "xml"], #"--framing must be auto, ndjson or lsp, not "xml""#),
        (["--max-frame-bytes", "abc"], #"--max-frame-bytes must be an integer from 64 to 1073741824, not "abc""#),
        (["--max-frame-bytes", "10"], #"--max-frame-bytes must be an integer from 64 to 1073741824, not "10""#),
        (["--time-scale", "0"], #"--time-scale must be a positive number, not "0""#),
        (["--time-scale=-2"], #"--time-scale must be a positive number, not "-2""#),
        (["--bundle-id", ""], "--bundle-id must be a non-empty identifier without spaces"),
        (["--bundle-id", "a b"], "--bundle-id must be a non-empty identifier without spaces"),
        (["--events=yes"], "--events takes no value"),
        (
            ["--info-plist", "/nonexistent/Info.plist"],
            "--info-plist: cannot read Info.plist at /nonexistent/Info.plist"
        ),
    ])
    func usageError(arguments: [String], reason: String) throws {
        let run = try Plugin.run(arguments, [state(1)])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.first == "background-service-plugin: error: \(reason)")
        #expect(run.stderr.contains("usage: background-service-plugin [options]"))
    }

    /// An unknown `BSP_FAULT` name is a usage error too (exit 64), naming the known ones.
    @Test func unknownFault() throws {
        let run = try Plugin.run([], [state(1)], environment: ["BSP_FAULT": "no-such-fault"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(#"unknown BSP_FAULT "no-such-fault"; known: "#))
        #expect(run.stderr.contains("usage: background-service-plugin [options]"))
    }

    /// `--flag=value` is accepted like `--flag value`.
    @Test func inlineValues() throws {
        let lines = try Plugin.lines(
            ["--profile=strict", "--bundle-id=org.demo", "--clock=virtual"], [req(1, "initialize")])
        #expect(
            lines == [
                ok(
                    1,
                    #"{"bundleIdentifier":"org.demo","clock":"virtual","profile":"strict","protocolVersion":"1","#
                        + #""serverInfo":{"name":"background-service-plugin","version":"0.1.0"},"#
                        + #""taskIdentifiers":{"processing":"org.demo.bg-processing","#
                        + #""refresh":"org.demo.bg-refresh"}}"#
                )
            ])
    }

    /// stdout carries protocol frames only; logs go to stderr.
    @Test func logsGoToStderr() throws {
        let run = try Plugin.run([], [req(1, "nope"), note("waitForCancel")])
        #expect(run.lines == [failure(1, -32601, "Method not found: nope")])
        #expect(run.stderrLines.contains(#"background-service-plugin: unknown method "nope""#))
        #expect(run.stderrLines.allSatisfy { $0.hasPrefix("background-service-plugin: ") })
    }
}
