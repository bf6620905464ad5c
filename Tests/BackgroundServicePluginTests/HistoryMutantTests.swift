import HostTestSupport
import Testing

/// The mutants from the real plugin's bug history (issue 14 item 4) do what they say: each
/// breaks its rule in a way a check can see (`second-answer-written`: `DispatchRaceTests`).
@Suite("mutants from the real plugin's bug history")
struct HistoryMutantTests {
    static let prefix = ExpirationAndTimerTests.prefix
    static let prefixOutput = ExpirationAndTimerTests.prefixOutput

    /// `complete-both-references`: the expiration completes the task through the reference its
    /// closure captured, then through the stored one: a second `setTaskCompleted`.
    @Test func completeBothReferences() throws {
        let run = try Plugin.run(
            ["--events"], Self.prefix + [expire(4, refreshID)],
            environment: ["BSP_FAULT": "complete-both-references"])
        #expect(
            run.lines == Self.prefixOutput + [
                evExpired(refreshID, at: "0"), evCompleted(refreshID, false, at: "0"), ok(2),
                evViolation(
                    "exactly-once",
                    "setTaskCompleted(success: false) called again for \(refreshID) launched at 0; ignored"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"), evTimer("invalidated", "28"), ok(4),
            ])
    }

    /// `safety-timer-rejects`: the timer rejects the pending `waitForCancel` (so the Rust side
    /// takes it for a natural completion and never stops the service) instead of resolving it.
    @Test func safetyTimerRejects() throws {
        let run = try Plugin.run(
            ["--events"], Self.prefix + [advance(4, "28")],
            environment: ["BSP_FAULT": "safety-timer-rejects"])
        #expect(
            run.lines == Self.prefixOutput + [
                evTimer("fired", "28"), rejected(2, "completed"), evCompleted(refreshID, false, at: "28"),
                evSubmitted(refreshID, "928"), evSubmitted(processingID, "928"), now(4, "28"),
            ])
    }

    /// `reschedule-without-task`: `completeBgTask` with no task active submits both requests.
    @Test func rescheduleWithoutTask() throws {
        let script = [req(1, "completeBgTask")]
        #expect(try Plugin.lines(["--events"], script) == [ok(1)])
        let run = try Plugin.run(["--events"], script, environment: ["BSP_FAULT": "reschedule-without-task"])
        #expect(run.lines == evScheduled("900") + [ok(1)])
    }

    /// `stop-no-reject-without-task`: with no task active, `stopKeepalive` does not reject the
    /// pending `waitForCancel`, and its `cleanup()` then lets go of it: never answered.
    @Test func stopNoRejectWithoutTask() throws {
        let script = [req(1, "waitForCancel"), req(2, "stopKeepalive")]
        #expect(try Plugin.lines([], script) == [rejected(1, "stopped"), ok(2)])
        let run = try Plugin.run([], script + [state(3)], environment: ["BSP_FAULT": "stop-no-reject-without-task"])
        var s = StateLine()
        (s.violations, s.dropped) = (1, 1)
        #expect(run.lines == [ok(2), s.line(3)])
        #expect(
            run.stderr.contains(
                "violation of invoke.never-answered: waitForCancel request 1 was let go of without an answer"))
    }
}
