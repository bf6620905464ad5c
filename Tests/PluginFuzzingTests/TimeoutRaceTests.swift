import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// Two listener timeouts at one instant (``Race/timeoutVsAnswer``, issue 27 item 3): in "D3
/// timed out" listener 1's `cancelCancelListener` rejects run 2's `waitForCancel` at the very
/// instant listener 2 times out. Both orders are reachable from a plan and replay; the
/// committed trace, which names no order for the race, replays as recorded (timeout first).
@Suite("Race timeout-vs-answer")
struct TimeoutRaceTests {
    let plugin = PluginLauncher(executable: Binaries.plugin, arguments: ["--profile", "seed"], stderrPrefix: "")

    /// The committed "D3 timed out" case.
    func timedOutCase() throws -> SystemCase {
        let path = PackageRoot.url("docs/findings/seed-d3-timed-out.jsonl").path
        return try TraceFile.read(path: path).systemCase().0
    }

    @Test(arguments: [Race.Side.first, .second])
    func bothOrdersAreReachableAndReplay(first: Race.Side) async throws {
        var c = try timedOutCase()
        #expect(c.scenario.races.choices[.timeoutVsAnswer] == nil)
        c.scenario.races.choices[.timeoutVsAnswer] = [first]
        let planned = c
        let outcome = try await onThread {
            planned.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(outcome.error == nil)
        #expect(outcome.allRaces.contains(RaceRecord(race: .timeoutVsAnswer, run: 2, first: first)))
        let lines = outcome.timeline.flatMap { $0 }
        let cancels = lines.filter { $0.contains("rust → plugin: ") && $0.hasSuffix(" cancelCancelListener") }
        if first == .first {
            // Timeout first (21 of 80 real runs): listener 2 times out too and sends a second
            // cancelCancelListener, then a Stop that finds nothing running.
            let timedOut =
                "run 2: cancel listener timed out after 100 s; its blocking thread stays blocked on waitForCancel #7"
            #expect(lines.contains { $0.hasSuffix(timedOut) })
            #expect(cancels.count == 2)
            #expect(lines.contains { $0.hasSuffix("stop by listener of run 2 (timed out) failed: not running") })
        } else {
            // Answer first (59 of 80): listener 2 takes its rejection and does nothing more.
            #expect(lines.contains { $0.hasSuffix("run 2: cancel listener rejected (listenerCancelled)") }, "\(lines)")
            #expect(cancels.count == 1)
            #expect(!lines.contains { $0.contains("listener of run 2 (timed out)") })
        }
        // The finding does not depend on it: listener 1's Stop stops run 2 either way.
        #expect(outcome.violations.contains { $0.violation.invariant == .d3 })
        let frozen = planned.frozen(outcome)
        let again = try await onThread {
            frozen.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(again.timeline == outcome.timeline)
    }

    /// Without an order for it the race is not run: the committed trace's timeout-first timeline.
    @Test func theCommittedTraceIsNotRaced() async throws {
        let (c, recorded) = try TraceFile.read(
            path: PackageRoot.url("docs/findings/seed-d3-timed-out.jsonl").path
        ).systemCase()
        let outcome = try await onThread {
            c.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(!outcome.allRaces.contains { $0.race == .timeoutVsAnswer })
        #expect(outcome.timeline == recorded)
    }

    @Test func itIsDrawnWithTheMeasuredWeight() {
        #expect(RacePlan(seed: 3).decides(.timeoutVsAnswer) && !RacePlan().decides(.timeoutVsAnswer))
        #expect(abs(Race.timeoutVsAnswer.secondFirstChance - 59.0 / 80) < 1e-12)
        #expect(
            Race.timeoutVsAnswer.realRuntimeStatement(.second)
                == "timeout-vs-answer answer-first: 59 of 80 trials on the real runtime")
    }
}
