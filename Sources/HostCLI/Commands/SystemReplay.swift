import Foundation
import HostProtocol
import HostSimulation
import PluginFuzzing
import PluginHost
import RustSide

/// Replays system-level traces: the same scenario and actions in a fresh
/// simulation; identical when every step's timeline matches the recording.
enum SystemReplay {
    static func run(_ trace: TraceFile, launcher: PluginLauncher, dispatch: DispatchMode, timeout: Double?) -> Int32 {
        guard let (c, recorded) = try? trace.systemCase() else { return ExitCode.usage }
        let behaviour = trace.header.profile
        let answerTimeout: Duration =
            timeout.map { .milliseconds(Int64(($0 * 1000).rounded())) } ?? SystemSimulation.Options.defaultAnswerTimeout
        let (outcome, failure) = c.replay(
            plugin: launcher, behaviour: behaviour, stopAt: trace.header.finding, dispatch: dispatch,
            answerTimeout: answerTimeout)
        if let failure { return FuzzCommand.report(failure, subcommand: "replay") }
        let actions = c.actions
        let timeline = outcome.timeline
        var identical = timeline.count == recorded.count
        for i in 0..<max(timeline.count, recorded.count) {
            let now = i < timeline.count ? timeline[i] : []
            let then = i < recorded.count ? recorded[i] : []
            guard now != then else { continue }
            identical = false
            let j = Array(zip(now, then)).firstIndex { $0 != $1 } ?? min(now.count, then.count)
            let what = i < actions.count ? actions[i].summary : "after the trace's last step"
            Console.out("different at step \(i + 1) (\(what)), line \(j + 1):")
            let counts = "the recording has \(then.count) lines for this step, the run now \(now.count)"
            Console.out("  recorded: \(j < then.count ? then[j] : "nothing more (\(counts))")")
            Console.out("  now:      \(j < now.count ? now[j] : "nothing more (\(counts))")")
            break
        }
        if identical { Console.out("identical: the same timeline, step by step (\(actions.count) steps)") }
        if let v = outcome.first(trace.header.finding) {
            Console.out("invariants: still broken after step \(v.step + 1): \(v.violation.signature)")
        } else {
            Console.out(
                "invariants: the finding no longer reproduces ("
                    + (outcome.signatures.isEmpty
                        ? "every invariant holds" : "other violations: " + outcome.signatures.joined(separator: "; "))
                    + ")"
            )
        }
        for line in outcome.realRuntime { Console.out("on the real runtime: \(line)") }
        return identical ? ExitCode.ok : ExitCode.failed
    }
}
