import HostProtocol
import HostSimulation
import PluginHost

/// `plugin-host demo --os ios`: its options and its summary.
extension DemoCommand {
    /// The ios day asked for, if `--os ios`; the manual day's own timings are usage errors with it.
    static func iosDay(_ args: Arguments, safetyTimeout: Double) throws(Arguments.UsageError)
        -> (scenario: IOSDemoScenario, seed: UInt64)?
    {
        let os = args.string("--os", default: "manual")
        guard os == "ios" else {
            guard os == "manual" else { throw Arguments.UsageError("--os must be one of manual, ios, not \"\(os)\"") }
            for flag in ["--os-seed"] where args.value(flag) != nil {
                throw Arguments.UsageError("\(flag) needs --os ios")
            }
            for flag in ["--restart-at-launch", "--app-states", "--legacy"] where args.has(flag) {
                throw Arguments.UsageError("\(flag) needs --os ios")
            }
            return nil
        }
        for flag in ["--work-seconds", "--overrun-seconds", "--earliest-begin-minutes", "--expire-after"]
        where args.value(flag) != nil {
            throw Arguments.UsageError("\(flag) belongs to the manual day; the --os ios day has its own")
        }
        var scenario = IOSDemoScenario()
        scenario.safetyTimeoutSeconds = safetyTimeout
        scenario.restartAtLaunch = args.has("--restart-at-launch")
        if args.has("--legacy"), args.has("--app-states") {
            throw Arguments.UsageError("--legacy leaves out the sixth part that --app-states asks for")
        }
        scenario.appStates = !args.has("--legacy")
        return (scenario, try args.uint64("--os-seed") ?? 0)
    }
}

extension DemoSummary {
    /// What the ios day adds to the summary: the app's processes and how they ended.
    static func iosText(sim: SystemSimulation, finalState: PluginStateSnapshot?) -> String {
        var lines = ["  app processes: \(sim.processes.count)"]
        for p in sim.processes {
            let started = p.number == 1 ? "at start" : "at \(TimelineRenderer.clock(p.startedAt)) (\(p.cause.rawValue))"
            let ended =
                sim.terminations.first { $0.process == p.number }.map {
                    "ended at \(TimelineRenderer.clock($0.at)) (\($0.reason.rawValue))"
                        + ($0.serviceWasRunning ? " with the service running" : "")
                } ?? "running at the end"
            let runs = p.startedARun ? "" : "; no service run in it"
            lines.append("    \(p.number): started \(started), \(ended)\(runs)")
        }
        if let kills = finalState?.counters.watchdogKills { lines.append("  watchdog kills: \(kills)") }
        return lines.joined(separator: "\n")
    }
}
