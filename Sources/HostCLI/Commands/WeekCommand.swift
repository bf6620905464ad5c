import Foundation
import HostProtocol
import HostSimulation
import PluginHost

/// `plugin-host week`: a simulated week (or N days) under `--os ios` with the default
/// policy (the device's: app states and scheduling driven by use), and what the schedule
/// got, day by day.
enum WeekCommand {
    static let usage = """
        usage: plugin-host week [options] [-- plugin-args...]

        Plays N simulated days (default 7) against the plugin under --os ios with the
        default policy (the device's: the app's states and scheduling driven by use),
        answering as the Rust side would, and prints what a schedule gets:
        per day, the launches of each kind, the tasks completed, the longest time without a
        launch of each kind (from the day's start, between launches, to the day's end) and
        the expirations by cause and the app's processes ended by reason; then the totals,
        and what iOS says of each request at the end (os/explain). Every figure is counted
        from the events the plugin sent (os/taskLaunched, os/taskExpired, os/taskCompleted,
        os/appTerminated).

        The same day every day, from the moment the phone comes off its charger: the user
        opens the app (its code starts the service with the Rust side's defaults, as it
        does at every launch of a new process; each sync takes 20 s) and uses it for 10
        minutes; five times, 170 minutes apart, picks up the phone for 10 minutes (the
        third time opening the app); after 16 hours the phone charges, idle, for 8 hours.
        iOS decides the rest: launches, budgets, expirations, terminations.
        Under --profile strict the host releases the keepalive when a run ends on its own
        (docs/host.md, D5): each 20-second sync leaves nothing scheduled, and the week shows
        no launch at all.

        options:
          --plugin PATH|builtin   plugin binary (default: background-service-plugin beside plugin-host);
                                  builtin: the plugin's engine in this process
          --days N                days to play, 1 to 60 (default 7)
          --os-seed N             the emulated OS's seed (default 0)
          --profile seed|strict   plugin profile and host behaviour (default seed)
          --legacy                run the plugin with --ios-defaults legacy: the model before the app's
                                  states and scheduling driven by use (a process only running or not,
                                  launches that ignore use)
          --app-states            with --legacy: switch the policy's appStates on first: the user's
                                  openings bring the app to the foreground, and leaving it sends it
                                  to the background (without --legacy the defaults have it: accepted)
          --usage                 with --legacy: switch the policy's usageScheduling (and appStates)
                                  on first: launches depend on use (a score that halves per day unused;
                                  refresh launches 6 h / score apart, processing a day / score; nothing
                                  after a week unused; without --legacy the defaults have it: accepted)
          --timeout SECONDS       real time the plugin has to answer each request (default 10)
          --json                  print the days, the totals and the events counted as JSON
          --plugin-log-prefix TEXT  what the plugin's stderr lines start with (default "[plugin] ")
          --help                  this text

        The default figures are the model calibrated to field reports (docs/rules.md, "A
        week with the default policy"); --legacy shows what the model before it gave. Exit status:
        0 the days were played, 2 the plugin did not start, 3 the plugin failed mid-run (its
        error on stderr), 64 usage errors.
        """

    /// What the command line asks for.
    struct Request {
        var scenario = WeekScenario()
        var seed: UInt64 = 0
        var profile = Profile.seed
        var timeout: Duration = SystemSimulation.Options.defaultAnswerTimeout
        var pluginPath = ""
        var json = false
        var passthrough: [String] = []
    }

    static func run(_ arguments: [String]) -> Int32 {
        var r = Request()
        do throws(Arguments.UsageError) {
            let args = try Arguments(
                arguments, options: ["--plugin", "--days", "--os-seed", "--profile", "--timeout"],
                flags: ["--help", "--json", "--legacy", "--app-states", "--usage"])
            if args.has("--help") {
                Console.out(usage)
                return ExitCode.ok
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            r.scenario.days = try args.int("--days", default: 7, range: 1...60)
            r.scenario.legacy = args.has("--legacy")
            // (Without --legacy, --app-states and --usage ask for what the defaults have: accepted,
            // so that the command lines documented before the device's defaults still run.)
            if args.passthrough.contains(where: { $0 == "--ios-defaults" || $0.hasPrefix("--ios-defaults=") }) {
                throw Arguments.UsageError("the plugin's defaults are chosen by --legacy, not by -- --ios-defaults")
            }
            r.scenario.usage = !r.scenario.legacy || args.has("--usage")
            r.scenario.appStates = !r.scenario.legacy || args.has("--app-states") || r.scenario.usage
            r.seed = try args.uint64("--os-seed") ?? 0
            r.profile = try args.choice("--profile", default: .seed)
            let seconds = try args.double("--timeout", default: 10, range: 0.1...3600)
            r.timeout = .milliseconds(Int((seconds * 1000).rounded()))
            (r.json, r.passthrough) = (args.has("--json"), args.passthrough)
            r.pluginPath = PluginLocator.resolve(args.value("--plugin"))
            guard PluginLocator.isAvailable(r.pluginPath) else {
                let explicit = args.value("--plugin") != nil
                return HostCLI.pluginMissing("week", path: r.pluginPath, explicit: explicit, usage: usage)
            }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("week") { return checked }
        return play(r)
    }

    private static func play(_ r: Request) -> Int32 {
        let launcher = PluginLocator.launcher(
            r.pluginPath,
            arguments: [
                "--profile", r.profile.rawValue, "--clock", "virtual", "--os", "ios", "--os-seed", String(r.seed),
            ]
                + (r.scenario.legacy ? ["--ios-defaults", "legacy"] : []) + r.passthrough)
        let sim: SystemSimulation
        do throws(SystemSimulation.SimulationError) {
            let plugin = try SimulationPlugin(launcher: launcher)
            do throws(SystemSimulation.SimulationError) {
                sim = try SystemSimulation(
                    options: .init(
                        plugin: launcher, behaviour: r.profile, serviceFactory: WeekScenario.factory,
                        answerTimeout: r.timeout, appStartsServiceAtLaunch: WeekScenario.config),
                    plugin: plugin)
            } catch {
                _ = plugin.close()
                throw error
            }
        } catch {
            HostCLI.diagnose("week", "the plugin did not begin the run: \(error)")
            return ExitCode.pluginDidNotStart
        }
        var failed: SystemSimulation.SimulationError?
        do throws(SystemSimulation.SimulationError) { try r.scenario.play(on: sim) } catch { failed = error }
        let tally = WeekTally(sim.timeline, days: r.scenario.days, refreshIdentifier: sim.refreshIdentifier)
        let atTheEnd = failed == nil ? WeekScenario.explanations(on: sim) : []
        _ = sim.close()
        if let failed {
            HostCLI.diagnose("week", "the plugin failed at \(TimelineRenderer.clock(sim.now)): \(failed)")
            return ExitCode.pluginMisbehaved
        }
        report(tally, atTheEnd, r)
        return ExitCode.ok
    }

    private static func report(_ tally: WeekTally, _ atTheEnd: [(kind: TaskKind, words: String)], _ r: Request) {
        let states =
            (r.scenario.appStates ? "app states on" : "app states off")
            + (r.scenario.usage ? ", usage scheduling on" : "")
        let policy =
            !r.scenario.legacy
            ? "the default policy"
            : r.scenario.usage
                ? "the legacy defaults with appStates and usageScheduling on"
                : r.scenario.appStates ? "the legacy defaults with appStates on" : "the legacy defaults"
        guard r.json else {
            Console.out(
                "\(r.scenario.days) simulated days under --os ios, \(policy) (OS seed \(r.seed), "
                    + "profile \(r.profile.rawValue), \(states)); gaps in hours and minutes\n" + tally.text + "\n"
                    + atTheEnd.map { "at the end, the \($0.kind.rawValue) request: \($0.words)" }.joined(
                        separator: "\n"))
            return
        }
        Console.json(
            .object([
                "days": .number(JSONNumber(r.scenario.days)), "osSeed": .string(String(r.seed)),
                "profile": .string(r.profile.rawValue), "appStates": .bool(r.scenario.appStates),
                "usageScheduling": .bool(r.scenario.usage),
                "perDay": .array((0..<r.scenario.days).map { WeekTally.json(tally.figures(day: $0)) }),
                "totals": WeekTally.json(tally.figures(day: nil)), "events": tally.eventsJSON,
                "atTheEnd": .object(
                    JSONObject(Dictionary(uniqueKeysWithValues: atTheEnd.map { ($0.kind.rawValue, .string($0.words)) }))
                ),
            ]))
    }
}
