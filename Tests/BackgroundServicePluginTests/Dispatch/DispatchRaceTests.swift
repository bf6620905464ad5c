import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--dispatch tauri`: the seed's cross-queue races, each with a witness schedule, and the
/// `strict` profile, under which no schedule produces one.
@Suite("dispatch: the seed's cross-queue races")
struct DispatchRaceTests {
    static let tauri = ["--events", "--dispatch", "tauri"]
    /// A task running and a `waitForCancel` (id 2) pending.
    static let prefix = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
    static let prefixOutput =
        evScheduled("900") + [
            ok(1), evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(3, refreshID, at: "0"),
        ]
    static let installed = ok(4, #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#)
    static let ipc = DispatchQueueName.ipc, main = DispatchQueueName.main

    /// exactly-once, broken by a race: `completeBgTask` (ipc) reads the task, the expiration
    /// handler (main) reads it too, nils it out and completes it; `completeBgTask` then nils
    /// out a nil and completes the same task again. Seed: `completeBgTask` 213-215 against
    /// `handleExpiration` 135-137.
    @Test func doubleCompletionWitness() throws {
        let choices = [Self.ipc, .ipc, .ipc] + Array(repeating: Self.main, count: 19)
        let lines = try Plugin.lines(
            Self.tauri,
            Self.prefix + [
                Dispatching.schedule(4, choices), "[\(req(5, "completeBgTask")),\(expire(6, refreshID))]", state(7),
            ])
        var s = StateLine()
        s.scheduled("900")
        (s.launched, s.completed, s.expired, s.violations) = (1, 1, 1, 1)
        #expect(
            lines == Self.prefixOutput + [
                Self.installed,
                // ipc: success, hadActiveTask, `if let task = currentRefreshTask`; then main runs.
                evExpired(refreshID, at: "0"), ok(2), evCompleted(refreshID, false, at: "0"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"), evTimer("invalidated", "28"),
                // ipc goes on with the task it read: a second setTaskCompleted.
                evViolation(
                    "exactly-once",
                    "setTaskCompleted(success: true) called again for \(refreshID) launched at 0; ignored"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"),
                "[\(ok(5)),\(ok(6))]", s.line(7),
            ])
    }

    /// A `waitForCancel` stored after the expiration that should have resolved it: the handler
    /// (main) finds no pending invoke, `waitForCancel` (ipc) stores one, the handler's `cleanup()`
    /// lets go of it unanswered. Seed: `handleExpiration` 129 and 145 (`cleanup` 180) against
    /// `waitForCancel` 188. Reported as `invoke.never-answered`; its batch slot is empty.
    @Test func lostWaitForCancelWitness() throws {
        let lines = try Plugin.lines(
            Self.tauri,
            [req(1, "startKeepalive"), launch(3, refreshID)] + [
                Dispatching.schedule(4, [.main, .ipc]), "[\(req(5, "waitForCancel")),\(expire(6, refreshID))]",
                state(7),
            ])
        var s = StateLine()
        s.scheduled("900")
        (s.launched, s.completed, s.expired, s.violations, s.dropped) = (1, 1, 1, 1, 1)
        let detail =
            #"waitForCancel request 5 was let go of without an answer by handleExpiration at "#
            + #"\"cleanup() › pendingCancelInvoke = nil\"; its caller waits forever"#
        #expect(
            lines == evScheduled("900") + [
                ok(1), evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(3, refreshID, at: "0"),
                Self.installed,
                evExpired(refreshID, at: "0"), evCompleted(refreshID, false, at: "0"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"),
                evViolation("invoke.never-answered", detail), evTimer("invalidated", "28"),
                "[\(ok(6))]", s.line(7),
            ])
    }

    /// invoke.answered-once, broken by a race: `cancelCancelListener` (ipc) reads the pending
    /// invoke, the expiration (main) resolves it, `cancelCancelListener` rejects it again. The
    /// second answer is reported, not written; with the `second-answer-written` mutant it is.
    @Test(arguments: [false, true])
    func doubleAnswerWitness(mutant: Bool) throws {
        let run = try Plugin.run(
            Self.tauri,
            Self.prefix + [
                Dispatching.schedule(4, [.ipc, .main, .main, .main, .ipc, .ipc, .ipc]),
                "[\(req(5, "cancelCancelListener")),\(expire(6, refreshID))]",
            ], environment: mutant ? ["BSP_FAULT": "second-answer-written"] : [:])
        let second =
            mutant
            ? rejected(2, "listenerCancelled")
            : evViolation(
                "invoke.answered-once",
                "waitForCancel request 2 answered a second time; the second answer was not written")
        #expect(
            run.lines == Self.prefixOutput + [
                Self.installed, evExpired(refreshID, at: "0"), ok(2), second,
                evCompleted(refreshID, false, at: "0"), evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"),
                evTimer("invalidated", "28"), "[\(ok(5)),\(ok(6))]",
            ])
    }

    /// Every schedule of `[waitForCancel, os/expire]` (seed): the wait is resolved when stored
    /// before the handler reads it, lost when stored between that read and `cleanup()`, and left
    /// pending (for the next task) when stored after.
    @Test func everyScheduleOfWaitAgainstExpiration() throws {
        let outcomes = try Dispatching.allSchedules(
            setup: [req(1, "startKeepalive"), launch(2, refreshID)],
            batch: "[\(req(3, "waitForCancel")),\(expire(4, refreshID))]", try Dispatching.options())
        let resolved = outcomes.filter { $0.text.contains(ok(3)) }
        let lost = outcomes.filter { $0.text.contains("invoke.never-answered") }
        let pending = outcomes.filter { !$0.text.contains(ok(3)) && !$0.text.contains("never-answered") }
        #expect(outcomes.count == resolved.count + lost.count + pending.count)
        #expect(resolved.count == 1 && lost.count >= 1 && pending.count >= 1, "\(outcomes.map(\.choices))")
        #expect(Set(outcomes.map(\.choices)).count == outcomes.count, "each schedule is a distinct interleaving")
        #expect(outcomes.allSatisfy { !$0.text.contains("exactly-once") })
    }

    /// `completeBgTask` against the expiration (seed): too many schedules to enumerate, so
    /// seeds are drawn. Some race into a double completion, some do not; replaying the
    /// decisions a racing seed took, as explicit choices, gives the same bytes.
    @Test func someSeedsCompleteTwiceAndReplayExactly() throws {
        let batch = "[\(req(3, "completeBgTask")),\(expire(4, refreshID))]"
        let setup = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(5, refreshID)]
        var racing: [Dispatching.Outcome] = []
        for seed in 0..<32 {
            let withSeed = [Dispatching.schedule(6, [], seed: seed)] + setup
            let outcome = try Dispatching.run(setup: withSeed, batch: batch, choices: nil, try Dispatching.options())
            if outcome.text.contains("\"rule\":\"exactly-once\"") { racing.append(outcome) }
        }
        #expect(!racing.isEmpty && racing.count < 32, "\(racing.count) of 32 seeds raced")
        let witness = try #require(racing.first)
        let options = try Dispatching.options()
        let replay = try Dispatching.run(setup: setup, batch: batch, choices: witness.choices, options)
        #expect(replay.lines == witness.lines)
        #expect(replay.choices == witness.choices)
    }

    /// `--dispatch-seed` changes the interleavings; the same seed and input give the same bytes.
    @Test func dispatchSeedChangesInterleavings() throws {
        let script = Self.prefix + ["[\(req(4, "completeBgTask")),\(expire(5, refreshID))]", state(6)]
        var outputs: Set<[UInt8]> = []
        for seed in 0..<8 {
            let first = try Plugin.run(Self.tauri + ["--dispatch-seed", "\(seed)"], script)
            let again = try Plugin.run(Self.tauri + ["--dispatch-seed", "\(seed)"], script)
            #expect(first.status == 0 && first.stdout == again.stdout)
            outputs.insert(first.stdout)
        }
        #expect(outputs.count >= 2)
    }
}
