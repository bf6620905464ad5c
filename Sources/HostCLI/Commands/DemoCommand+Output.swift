import HostProtocol
import HostSimulation
import PluginHost

/// What the demo prints after its run: the timeline (brief, or every message with
/// `--full`), the summary, the plugin's stderr (on stderr), the Mermaid diagram when
/// asked, and last the verdict. Every line goes through ``Console`` (fitted to the
/// terminal by ``HostCLI/Screen`` when stdout is one).
extension DemoCommand {
    /// A finished run.
    struct Outcome {
        var entries: [TimelineEntry]
        var finalState: PluginStateSnapshot?
        var pluginExit: ExitStatus
        var pid: String
        var verdict: HostCLI.Verdict
        var stopped: SystemSimulation.SimulationError?
        var stderrNotKept: (lines: Int, bytes: Int)
        var sim: SystemSimulation
    }

    /// Prints the run; returns the verdict's status (64 when the diagram could not be
    /// written and every rule held).
    static func report(_ run: Outcome, _ request: Request) -> Int32 {
        // The plugin's stderr lines go to the demo's stderr, not into the timeline: they come
        // on their own pipe, so their place among the replies is not deterministic.
        var entries = run.entries
        for case .stderr(let line) in entries.map(\.kind) { HostCLI.diagnose(line) }
        notKept(run.stderrNotKept)
        entries.removeAll { if case .stderr = $0.kind { true } else { false } }

        if request.json {
            Console.json(json(run, entries: entries, request))
        } else {
            let os = request.ios.map { ", --os ios (seed \($0.seed))" } ?? ""
            let profile = request.settings.profile.rawValue
            HostCLI.Screen.out(
                "plugin-host demo: profile \(profile)\(os), plugin \(request.pluginPath) (\(run.pid)), virtual time\n")
            if request.full {
                for e in entries { if let line = TimelineRenderer.line(e) { HostCLI.Screen.out(line) } }
            } else {
                for line in DemoBriefView.lines(entries) { HostCLI.Screen.out(line) }
            }
            HostCLI.Screen.out("")
            HostCLI.Screen.out(
                DemoSummary.text(entries: entries, finalState: run.finalState, pluginExit: run.pluginExit))
            if request.ios != nil { HostCLI.Screen.out(DemoSummary.iosText(sim: run.sim, finalState: run.finalState)) }
        }
        var status = run.verdict.status
        if let path = request.mermaid {
            let title =
                "plugin-host demo (\(request.settings.profile.rawValue)\(request.ios == nil ? "" : ", --os ios"))"
            do throws(HostCLI.OutputFile.WriteError) {
                try HostCLI.OutputFile.write(TimelineRenderer.mermaid(entries, title: title), to: path)
                HostCLI.diagnose("demo", "wrote the sequence diagram to \(path)")
            } catch {
                HostCLI.diagnose("demo", "--mermaid: \(error)")
                if status == ExitCode.ok { status = ExitCode.usage }
            }
        }
        if request.json {
            if !run.verdict.problems.isEmpty { HostCLI.diagnose("demo", run.verdict.line) }
        } else {
            HostCLI.Screen.out("")
            if !run.verdict.problems.isEmpty {
                HostCLI.Screen.out("problems:\n" + run.verdict.details.joined(separator: "\n"))
            }
            HostCLI.Screen.out(run.verdict.line)
        }
        return status
    }

    private static func json(_ run: Outcome, entries: [TimelineEntry], _ request: Request) -> JSONValue {
        var o: [String: JSONValue] = [
            "profile": .string(request.settings.profile.rawValue),
            "plugin": .string(request.pluginPath),
            "timeline": TimelineRenderer.json(entries),
            "pluginExit": .string(run.pluginExit.description),
            "verdict": run.verdict.json,
        ]
        if let finalState = run.finalState { o["finalState"] = finalState.json }
        if let ios = request.ios {
            o["os"] = "ios"
            o["osSeed"] = .number(JSONNumber(literal: String(ios.seed))!)
        }
        if let stopped = run.stopped { o["error"] = .string(stopped.description) }
        if run.stderrNotKept.lines > 0 {
            o["stderrNotKept"] = ["lines": .number(run.stderrNotKept.lines), "bytes": .number(run.stderrNotKept.bytes)]
        }
        return .object(o)
    }
}
