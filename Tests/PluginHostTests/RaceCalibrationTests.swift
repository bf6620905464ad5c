import HostProtocol
import HostTestSupport
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
}
