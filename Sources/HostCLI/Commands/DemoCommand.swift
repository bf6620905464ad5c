import Foundation
import HostProtocol
import HostSimulation
import PluginHost

/// `plugin-host demo`: the scripted day against the plugin, as a timeline, and a verdict.
enum DemoCommand {
    static let usage = """
        usage: plugin-host demo [options] [-- plugin-args...]

        Runs the emulated Rust-side service manager with a sample sync service against
        the plugin, on one virtual clock, through a scripted day (with the default timings):
        a sync that finishes in time, one cut off by the safety timer, a processing task
        expired by iOS, and a stop; the notes say what happened in this run. Prints the
        timeline (in brief: the notes and what they are about; --full: every message), a
        summary and a verdict, and the plugin's stderr lines, if any, on stderr (the first
        1 MiB; what is past it is counted). Runs in well under a second of real time (0.04
        to 0.08 s measured).

        With --os ios the emulated iOS acts on its own, and the day is another: a refresh
        task expired after a few seconds, a processing task cut off when the phone is
        unplugged, a force-quit and what it does to the schedule, a cold start into the
        background with a fresh Rust side, and two tasks at once: under the seed profile,
        completing the refresh task lets go of the processing task, the watchdog kills
        the app, and the verdict says so (exit 1); under --profile strict every rule holds.

        The verdict, the last line, says whether every rule held: no early stop, no
        protocol error from the plugin, no answer twice or to an unknown id, no violation
        in the plugin's counters, every task launched completed exactly once (as its
        events and the counters say), and the plugin exited 0 at the end.

        options:
          --plugin PATH|builtin         plugin binary (default: background-service-plugin beside plugin-host);
                                        builtin: the plugin's engine in this process
          --profile seed|strict         plugin profile and host behaviour (default seed)
          --work-seconds S              how long the first sync takes (default 20)
          --overrun-seconds S           how long the later syncs would take (default 3600)
          --safety-timeout S            iosSafetyTimeoutSecs (default 28)
          --earliest-begin-minutes M    earliest begin of both requests (default 15)
          --expire-after S              when iOS expires the processing task (default 300)
          --os manual|ios               the emulated OS: told what to do (default) or acting on its own
          --os-seed N                   with --os ios: the OS's seed (default 0)
          --restart-at-launch           with --os ios: the app's code starts the service at every launch
          --legacy                      with --os ios: the five parts only, without the sixth: the app's
                                        states (the policy's appStates, on by default): opened, sent to
                                        the background, suspended, woken by a launch, and a task expired
                                        by the user opening the app (the plugin keeps the device's
                                        defaults; the five parts switch the states and use off themselves)
          --app-states                  with --os ios: the sixth part (the default; kept for older
                                        command lines)
          --timeout SECONDS             real time the plugin has to answer each request, initialize
                                        included (default 10)
          --full                        print every message of the timeline, not the brief view
          --json                        print the run (the whole timeline, the verdict) as JSON instead of text
          --mermaid FILE                also write the run as a Mermaid sequence diagram (written in place:
                                        an existing file keeps its mode, a FIFO or device is written through)
          --plugin-log-prefix TEXT      what the plugin's stderr lines start with (default "[plugin] ")
          --help                        this text

        Lines are fitted to the terminal's width when stdout is a terminal, never cut otherwise.
        Exit status: 0 every rule held, 1 a rule broken, 2 the plugin did not start, 3 the
        plugin broke the transport (flooding, no answer within --timeout, bad frames, answers twice
        or to unknown ids, ended mid-run), 64 usage errors.
        """

    /// What the command line asks for.
    struct Request {
        var settings = DemoScenario.Settings()
        var ios: (scenario: IOSDemoScenario, seed: UInt64)?
        var timeout: Duration = SystemSimulation.Options.defaultAnswerTimeout
        var pluginPath = ""
        var json = false
        var full = false
        var mermaid: String?
        var passthrough: [String] = []
    }

    static func run(_ arguments: [String]) -> Int32 {
        let request: Request
        switch parse(arguments) {
        case .run(let r): request = r
        case .done(let status): return status
        }
        if let checked = HostCLI.stopAfterCheckingArguments("demo") { return checked }
        let simulation: SystemSimulation
        switch start(request) {
        case .success(let sim): simulation = sim
        case .failure(let failure): return report(failure, request)
        }
        return play(request, on: simulation)
    }

    /// What the command line says: a run, or nothing more to do (`--help`, a usage error).
    private enum Parsed {
        case run(Request)
        case done(Int32)
    }

    private static func parse(_ arguments: [String]) -> Parsed {
        var r = Request()
        let args: Arguments
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments,
                options: [
                    "--plugin", "--profile", "--work-seconds", "--overrun-seconds", "--safety-timeout",
                    "--earliest-begin-minutes", "--expire-after", "--mermaid", "--os", "--os-seed", "--timeout",
                ],
                flags: ["--help", "--json", "--restart-at-launch", "--full", "--app-states", "--legacy"])
            if args.has("--help") {
                Console.out(usage)
                return .done(ExitCode.ok)
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            r.settings.profile = try args.choice("--profile", default: .seed)
            r.settings.workSeconds = try args.double("--work-seconds", default: 20, range: 0...86_400)
            r.settings.overrunSeconds = try args.double("--overrun-seconds", default: 3600, range: 0...86_400)
            r.settings.safetyTimeoutSeconds = try args.double("--safety-timeout", default: 28, range: 0...86_400)
            r.settings.earliestBeginMinutes = try args.double("--earliest-begin-minutes", default: 15, range: 0...1440)
            r.settings.processingExpiresAfterSeconds = try args.double(
                "--expire-after", default: 300, range: 0...86_400)
            r.ios = try DemoCommand.iosDay(args, safetyTimeout: r.settings.safetyTimeoutSeconds)
            let seconds = try args.double("--timeout", default: 10, range: 0.1...3600)
            r.timeout = .milliseconds(Int((seconds * 1000).rounded()))
        } catch {
            return .done(HostCLI.usageError(error.description, usage: usage))
        }
        (r.json, r.full, r.mermaid, r.passthrough) = (
            args.has("--json"), args.has("--full"), args.value("--mermaid"), args.passthrough
        )
        r.pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(r.pluginPath) else {
            let explicit = args.value("--plugin") != nil
            return .done(HostCLI.pluginMissing("demo", path: r.pluginPath, explicit: explicit, usage: usage))
        }
        if let path = r.mermaid, let message = HostCLI.OutputFile.usageMessage("--mermaid", path) {
            return .done(HostCLI.usageError(message, usage: usage))
        }
        return .run(r)
    }

    /// Plays the day, then prints the timeline, the summary and the verdict; returns the verdict's status.
    private static func play(_ request: Request, on sim: SystemSimulation) -> Int32 {
        let pid = sim.client.connection.pluginProcess.map { "pid \($0.pid)" } ?? "in this process"
        var stopped: SystemSimulation.SimulationError?
        do {
            if let ios = request.ios {
                try ios.scenario.play(on: sim)
            } else {
                try DemoScenario(settings: request.settings).play(on: sim)
            }
        } catch {
            stopped = error
        }
        // A plugin that broke the transport is not asked again: it would only wait out the timeout.
        var finalState: Result<PluginStateSnapshot, SystemSimulation.SimulationError>?
        if stopped.map({ HostCLI.Verdict.Kind($0, starting: false) == .rule }) ?? true {
            do { finalState = .success(try sim.pluginState()) } catch { finalState = .failure(error) }
        }
        let exit = sim.close()
        let entries = sim.timeline
        let verdict = DemoVerdict.judge(
            .init(entries: entries, finalState: finalState, stopped: stopped, pluginExit: exit))
        let run = Outcome(
            entries: entries, finalState: try? finalState?.get(), pluginExit: exit, pid: pid, verdict: verdict,
            stopped: stopped, stderrNotKept: sim.stderrNotKept, sim: sim)
        return report(run, request)
    }
}
