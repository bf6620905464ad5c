import Foundation
import HostProtocol
import PluginHost

/// `plugin-host explain`: "why has my task not run?" for a live session.
enum ExplainCommand {
    static let usage = """
        usage: plugin-host explain [options] [-- plugin-args...]

        Starts a fresh plugin with the emulated iOS acting on its own (--os ios, virtual
        clock, events on) and plays a session against it: JSON-RPC requests, one per line,
        as you would type them by hand, from --script FILE or standard input (interactive
        when it is a terminal; CRLF line ends are accepted). Each reply and event is shown
        as it comes (at most 10,000 events after a line; the rest are counted);
        `waitForCancel` stays pending as in a real host. At any point a line
        `explain` (or `explain ID`) prints, for every identifier (or ID), its status,
        every reason it is not running now and when it could next run; at the end of the
        input the same is printed once more, unless the session ended with `shutdown`.
        Lines that are blank or start with `#` are skipped.
        Batches (JSON arrays) are not accepted: send their members one line each.

        The last line is the verdict: whether every rule held (no protocol error from the
        plugin, no answer twice or to an unknown id, no violation in its counters, no
        early stop, the plugin exited 0 at the end). A plugin that breaks the transport
        (floods, gives no answer within --timeout, writes what is not a frame, ends mid-session)
        ends the session there.

        Example script:
          {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
          {"jsonrpc":"2.0","id":2,"method":"os/setConditions","params":{"lowPowerMode":true}}
          {"jsonrpc":"2.0","id":3,"method":"os/advanceTime","params":{"seconds":600}}
          explain

        options:
          --plugin PATH|builtin       plugin binary (default: background-service-plugin beside plugin-host)
          --script FILE|-             the session's lines (default -: standard input)
          --profile seed|strict       plugin profile (default seed)
          --os-seed N                 the emulated OS's seed (default 0)
          --timeout SECONDS           real time the plugin has to answer each request (default 10)
          --json                      print each explanation as one JSON line {"now","explanations"}, nothing
                                      else (the verdict goes to stderr)
          --quiet                     do not show replies and events, only explanations and the verdict
          --plugin-log-prefix TEXT    what the plugin's stderr lines start with (default "[plugin] ")
          --help                      this text

        Plugin arguments after -- are added to --os ios --clock virtual --events. Lines are
        fitted to the terminal's width when stdout is a terminal, never cut otherwise.
        Exit status: 0 every rule held, 1 a rule broken or a line that could not be used,
        2 the plugin did not start, 3 the plugin broke the transport, 64 usage errors.
        """

    static func run(_ arguments: [String]) -> Int32 {
        var r = ExplainRequest()
        let args: Arguments
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments, options: ["--plugin", "--script", "--profile", "--os-seed", "--timeout"],
                flags: ["--help", "--json", "--quiet"])
            if args.has("--help") {
                Console.out(usage)
                return ExitCode.ok
            }
            if let extra = args.positional.first { throw Arguments.UsageError("unexpected argument \"\(extra)\"") }
            r.profile = try args.choice("--profile", default: .seed)
            r.seed = try args.uint64("--os-seed") ?? 0
            let seconds = try args.double("--timeout", default: 10, range: 0.1...3600)
            r.timeout = .milliseconds(Int((seconds * 1000).rounded()))
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let input: LineSource
        switch LineSource.open(args.value("--script") ?? "-") {
        case .success(let source): input = source
        case .failure(let error): return HostCLI.usageError(error.description, usage: usage)
        }
        defer { input.close() }
        (r.json, r.passthrough) = (args.has("--json"), args.passthrough)
        r.echo = !r.json && !args.has("--quiet")
        r.pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(r.pluginPath) else {
            return HostCLI.pluginMissing(
                "explain", path: r.pluginPath, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("explain") { return checked }
        let plugin = PluginLocator.launcher(
            r.pluginPath,
            arguments: [
                "--profile", r.profile.rawValue, "--clock", "virtual", "--os", "ios", "--os-seed", String(r.seed),
                "--events",
            ] + r.passthrough)
        let echo = r.echo
        let session: ExplainSession
        do {
            session = try ExplainSession(
                plugin: plugin, answerTimeout: r.timeout, echo: { line in if echo { HostCLI.Screen.out(line) } })
        } catch {
            return didNotStart(error, r)
        }
        if input.isTerminal {
            HostCLI.diagnose("explain", "type JSON-RPC requests, `explain [ID]`, or end the input (Ctrl-D)")
        }
        return ExplainRun(session: session, request: r).play(input)
    }

    /// The plugin did not begin the session: why, and the verdict (2, or 3 when it broke the transport).
    private static func didNotStart(_ failure: ExplainSession.Failure, _ r: ExplainRequest) -> Int32 {
        var verdict = HostCLI.Verdict()
        let error = failure.error ?? .launchFailed(failure.description)
        verdict.add(
            .init(error, starting: true), HostCLI.Verdict.name(of: error, starting: true),
            "the plugin \(r.pluginPath) did not begin the session: \(failure)")
        HostCLI.diagnose("explain", "the plugin did not begin the session: \(failure)")
        ExplainRun.show(verdict, json: r.json)
        return verdict.status
    }
}
