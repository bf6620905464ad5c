import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// A freed blocking-pool thread runs the queued closure at once (``Race/handoffVsStop``,
/// issue 27 item 2): in "D3 resolved" run 4's queued `waitForCancel` and listener 3's `Stop`
/// race; both orders are reachable from a plan, replay, and still break D3; the committed
/// trace, which has no order for the race, replays as before.
@Suite("Race handoff-vs-stop")
struct HandoffRaceTests {
    let plugin = PluginLauncher(executable: Binaries.plugin, arguments: ["--profile", "seed"], stderrPrefix: "")

    /// The committed "D3 resolved" case.
    func resolvedCase() throws -> SystemCase {
        let path = PackageRoot.url("docs/findings/seed-d3-resolved.jsonl").path
        return try TraceFile.read(path: path).systemCase().0
    }

    @Test(arguments: [Race.Side.first, .second])
    func bothOrdersAreReachableAndReplay(first: Race.Side) async throws {
        var c = try resolvedCase()
        #expect(c.scenario.races.choices[.handoffVsStop] == nil)
        c.scenario.races.choices[.handoffVsStop] = [first]
        let planned = c
        let outcome = try await onThread {
            planned.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(outcome.error == nil)
        #expect(outcome.allRaces.contains(RaceRecord(race: .handoffVsStop, run: 4, first: first)))
        let lines = outcome.timeline.flatMap { $0 }
        // Handoff first: run 4's waitForCancel is written before the Stop's stopKeepalive, which
        // rejects it (as in 36 of 40 real runs); stop first: after it, the completion rejects it.
        let reason = first == .first ? "stopped" : "completed"
        #expect(lines.contains { $0.hasSuffix("run 4: cancel listener rejected (\(reason))") }, "\(lines)")
        let wait = try #require(lines.lastIndex { $0.contains("rust → plugin: ") && $0.hasSuffix(" waitForCancel") })
        let stop = try #require(lines.lastIndex { $0.contains("rust → plugin: ") && $0.hasSuffix(" stopKeepalive") })
        #expect((wait < stop) == (first == .first))
        // The finding does not depend on it: listener 3's Stop stops run 4 either way.
        #expect(outcome.violations.contains { $0.violation.invariant == .d3 })
        // The recorded orders replay the same timeline.
        let frozen = planned.frozen(outcome)
        let again = try await onThread {
            frozen.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(again.timeline == outcome.timeline)
    }

    /// Without an order for it (the committed trace's plan) the race is not run: the trace's
    /// recorded timeline is what the case gives.
    @Test func theCommittedTraceIsNotRaced() async throws {
        let c = try resolvedCase()
        let outcome = try await onThread {
            c.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(!outcome.allRaces.contains { $0.race == .handoffVsStop })
        let lines = outcome.timeline.flatMap { $0 }
        #expect(lines.contains { $0.hasSuffix("run 4: cancel listener rejected (completed)") })
    }

    /// The fuzzer's seeded plans decide it, with the measured weight: stop-first 4 in 40.
    @Test func seededPlansDecideItWithTheMeasuredWeight() {
        #expect(RacePlan(seed: 1).decides(.handoffVsStop))
        #expect(!RacePlan().decides(.handoffVsStop))
        #expect(RacePlan(choices: [.handoffVsStop: []]).decides(.handoffVsStop))
        #expect(abs(Race.handoffVsStop.secondFirstChance - 0.1) < 1e-12)
        #expect(
            Race.handoffVsStop.realRuntimeStatement(.first)
                == "handoff-vs-stop handoff-first: 36 of 40 trials on the real runtime")
    }
}
