import HostProtocol
import HostSimulation
import PluginHost

/// Whether every rule held in a demo run, read from its timeline, the plugin's final
/// state and how it ended:
/// - no early stop (a step that failed, the plugin gone or silent);
/// - no protocol error from the plugin, no answer twice, no answer to an unknown id;
/// - the plugin's counters report no violation;
/// - every task launched was completed exactly once, as its events and its counters
///   say (the task still running at the end, if any, excepted);
/// - the plugin exited 0 once its input closed (`docs/protocol.md` section 7).
enum DemoVerdict {
    /// What the demo knows at the end of its run.
    struct Run {
        /// The whole timeline (hidden entries included).
        var entries: [TimelineEntry]
        /// `plugin/state` at the end, or why it could not be read (nil: not asked).
        var finalState: Result<PluginStateSnapshot, SystemSimulation.SimulationError>?
        /// Why the run stopped early, if it did.
        var stopped: SystemSimulation.SimulationError?
        /// How the plugin ended.
        var pluginExit: ExitStatus
    }

    static func judge(_ run: Run) -> HostCLI.Verdict {
        var verdict = HostCLI.Verdict()
        var tally = HostCLI.ProtocolTally()
        for e in run.entries {
            switch e.kind {
            case .request(let r, _): tally.sent(r.id)
            case .response(let r, _): tally.answered(r.id)
            case .protocolError(let why): tally.protocolError(why)
            default: break
            }
        }
        if let stopped = run.stopped {
            let name = HostCLI.Verdict.name(of: stopped, starting: false)
            verdict.add(.init(stopped, starting: false), name, "the run stopped early: \(stopped)")
        }
        tally.report(into: &verdict, stoppedBy: run.stopped?.description)
        switch run.finalState {
        case .success(let state):
            verdict.judge(state.counters)
            if run.stopped == nil { exactlyOnce(run.entries, state: state, into: &verdict) }
        case .failure(let error):
            let name = HostCLI.Verdict.name(of: error, starting: false)
            verdict.add(.init(error, starting: false), name, "plugin/state at the end: \(error)")
        case nil:
            break
        }
        if run.stopped == nil {
            if run.pluginExit.isSuccess {
                verdict.held("the plugin exited 0")
            } else {
                verdict.add(.rule, "exit status", "the plugin \(run.pluginExit) when its input closed (it must exit 0)")
            }
        }
        return verdict
    }

    /// Each launch completed once: from the events (a completion with no launch open, a
    /// launch over one not completed, a launch never completed), and the counters
    /// agreeing with them.
    private static func exactlyOnce(
        _ entries: [TimelineEntry], state: PluginStateSnapshot, into verdict: inout HostCLI.Verdict
    ) {
        var open: [String: VirtualTime] = [:]
        var launches = 0
        var completions = 0
        var broken = HostCLI.Sample()
        for case .event(let n) in entries.map(\.kind) {
            guard let p = try? TaskEventParams(json: n.params ?? .null) else { continue }
            let id = TerminalText.oneLine(p.identifier, limit: 200)
            switch n.method {
            case TaskLaunchedEvent.name:
                launches += 1
                if let earlier = open[p.identifier] {
                    broken.add("\(id) launched at \(earlier.decimalSeconds) s never completed before its next launch")
                }
                open[p.identifier] = p.at
            case TaskCompletedEvent.name:
                if open.removeValue(forKey: p.identifier) == nil {
                    broken.add("\(id) completed at \(p.at.decimalSeconds) s with no launch left to complete")
                } else {
                    completions += 1
                }
            default: break
            }
        }
        let running = state.activeTask.map(\.identifier)
        for (identifier, at) in open where identifier != running {
            broken.add(
                "\(TerminalText.oneLine(identifier, limit: 200)) launched at \(at.decimalSeconds) s never completed")
        }
        let c = state.counters
        if c.launched != launches || c.completed != completions {
            broken.add(
                "the counters say launched \(c.launched), completed \(c.completed); the events, \(launches) and "
                    + "\(completions)")
        }
        if broken.count == 0 {
            let still = running.map { "; \(TerminalText.oneLine($0, limit: 200)) still running" } ?? ""
            verdict.held("\(HostCLI.Verdict.count(launches, "task")) launched, each completed once\(still)")
        } else {
            verdict.add(.rule, "exactly-once", "exactly-once: \(broken.text)")
        }
    }
}
