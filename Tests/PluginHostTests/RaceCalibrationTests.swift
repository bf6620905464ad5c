import HostProtocol
import HostTestSupport
import Synchronization
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The races drawn with the real runtime's measured weights (issue 27): a seed draws each
/// order about as often as its weight says, the rare order included, and a plan that names
/// the rare order replays it.
@Suite("Race weights calibrated to the real runtime")
struct RaceCalibrationTests {
    /// The share of `second` among `count` draws of `race` from one seeded plan.
    func secondShare(_ race: Race, seed: UInt64, count: Int = 20_000) -> Double {
        var drawer = RaceDrawer(RacePlan(seed: seed))
        let seconds = (0..<count).filter { _ in drawer.next(race) == .second }.count
        return Double(seconds) / Double(count)
    }

    @Test func stopVsCompletionDrawsCompletionFirstAtTheFloor() {
        // 0 of 1,400 real trials: drawn at the floor, 5 %, not never and not half the time.
        let share = secondShare(.stopVsCompletion, seed: 20_261_124)
        #expect(share > 0.04 && share < 0.06, "\(share)")
        #expect(secondShare(.listenerVsCompletion, seed: 20_261_124) > 0.73)
        #expect(secondShare(.pluginVsHostDeadline, seed: 20_261_124) < 0.52)
        // The new races with their measured weights (an even chance where nothing was measured).
        #expect(secondShare(.handoffVsStop, seed: 7) > 0.08 && secondShare(.handoffVsStop, seed: 7) < 0.12)
        #expect(secondShare(.timeoutVsAnswer, seed: 7) > 0.71 && secondShare(.timeoutVsAnswer, seed: 7) < 0.76)
        #expect(
            Race.listenerVsLateCompletion.realRuntimeStatement(.first)
                == "listener-vs-late-completion listener-first: reached on the real runtime (issue 27), "
                + "how often not measured")
    }

    /// The rare order is taken when the plan names it, and replays (the timeline is the same).
    @Test func theRareStopOrderStaysReachable() async throws {
        try await onThread {
            let sim = try makeSimulation(races: RacePlan(choices: [.stopVsCompletion: [.second]])) {
                SyncService(runSeconds: 1000)
            }
            defer { sim.closeAndCheckReaped() }
            _ = try sim.start()
            _ = try sim.stop()
            #expect(sim.raceRecords == [RaceRecord(race: .stopVsCompletion, run: 1, first: .second)])
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "completed") })
        }
    }

    /// Issue 27 item 4: run 1's `initialize` fails 5 s in, and the app starts the service in
    /// the window before run 1's callback (`run-end-vs-app`, `app-first`); run 2's listener and
    /// run 1's late `completeBgTask(false)` then race. Plays it; returns the simulation.
    func lateCompletion(_ plan: RacePlan) throws -> SystemSimulation {
        let starts = Mutex(0)
        let sim = try makeSimulation(races: plan) {
            let n = starts.withLock { n in
                n += 1
                return n
            }
            return n == 1 ? SyncService(initSeconds: 5, initFails: true, runSeconds: 0) : SyncService(runSeconds: 1000)
        }
        _ = try sim.start()
        sim.appCommandAt = sim.now.adding(seconds: 5)
        try sim.advance(5)
        sim.appCommandAt = nil
        try sim.host { _ = try? await $0.start(StartKeepaliveConfig()) }
        return sim
    }

    @Test(arguments: [Race.Side.first, .second])
    func anInitFailuresLateCompletionRacesTheNewerListener(first: Race.Side) async throws {
        try await onThread {
            let plan = RacePlan(choices: [.runEndVsApp: [.second], .listenerVsLateCompletion: [first]])
            let sim = try lateCompletion(plan)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords.contains(RaceRecord(race: .listenerVsLateCompletion, run: 2, first: first)))
            let listener2 = sim.serviceEvents.compactMap { e -> String? in
                if case .listenerFinished(2, let outcome) = e { outcome } else { nil }
            }
            let status = try sim.status()
            #expect(status.generation == 2 && status.isRunning)
            if first == .first {
                // As the real runtime can: run 2's waitForCancel goes first and run 1's late
                // completion rejects it; run 2 runs on without a listener.
                #expect(listener2 == ["rejected (completed)"], "\(sim.serviceEvents)")
                #expect(try sim.pluginState().cancelInvokePending == false)
            } else {
                // The only order before issue 27: run 2's invoke stays pending.
                #expect(listener2.isEmpty)
                #expect(try sim.pluginState().cancelInvokePending == true)
            }
            let again = try lateCompletion(RacePlan(frozen: sim.raceRecords))
            defer { again.closeAndCheckReaped() }
            #expect(again.raceRecords == sim.raceRecords)
            // (The plugin's stderr comes on a pipe of its own, in no fixed place among the rest.)
            func lines(_ s: SystemSimulation) -> [Substring] {
                TimelineRenderer.text(s.timeline).split(separator: "\n").filter { !$0.contains("plugin stderr") }
            }
            #expect(lines(again) == lines(sim))
        }
    }

    /// Without an order for it (a plan with neither a seed nor orders for the race) the race
    /// is not run: the late completion goes first, as before issue 27.
    @Test func withoutAPlanTheLateCompletionGoesFirst() async throws {
        try await onThread {
            let sim = try lateCompletion(RacePlan(choices: [.runEndVsApp: [.second]]))
            defer { sim.closeAndCheckReaped() }
            #expect(!sim.raceRecords.contains { $0.race == .listenerVsLateCompletion })
            #expect(try sim.pluginState().cancelInvokePending == true)
        }
    }
}
