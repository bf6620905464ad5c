import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// Contract 4: expiration, safety-timer, exactly-once.
@Suite("expiration, safety timer, exactly-once")
struct ExpirationAndTimerTests {
    static let prefix = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
    static let prefixOutput =
        evScheduled("900") + [
            ok(1), evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(3, refreshID, at: "0"),
        ]

    /// expiration: resolve the pending wait (`result: null`), complete the task with
    /// `false` (nil-out first), schedule next, clean up (the timer is invalidated).
    @Test func expiration() throws {
        let lines = try Plugin.lines(["--events"], Self.prefix + [advance(4, "5"), expire(5, refreshID), state(6)])
        var s = StateLine()
        s.now = "5"
        s.scheduled("905")
        s.launched = 1
        s.completed = 1
        s.expired = 1
        #expect(
            lines == Self.prefixOutput + [
                now(4, "5"),
                evExpired(refreshID, at: "5"),
                ok(2),
                evCompleted(refreshID, false, at: "5"),
                evSubmitted(refreshID, "905"), evSubmitted(processingID, "905"),
                evTimer("invalidated", "28"),
                ok(5),
                s.line(6),
            ])
    }

    /// safety-timer: fires at exactly 28 s. Advancing 27.999999999 s does nothing;
    /// the next nanosecond fires it: resolve the wait, complete with `false`,
    /// schedule next (from 28), clean up.
    @Test func safetyTimerFiresAtDeadline() throws {
        let lines = try Plugin.lines(
            ["--events"],
            Self.prefix + [
                advance(4, "27.999999999"), state(5), advance(6, "0.000000001"), state(7),
            ])
        var before = StateLine()
        before.now = "27.999999999"
        before.active(refreshID, at: "0")
        before.pendingCancelInvoke = "2"
        before.safetyTimer = "28"
        before.launched = 1
        before.pendingRequests = [requestJSON(processingID, "900")]
        var after = StateLine()
        after.now = "28"
        after.scheduled("928")
        after.launched = 1
        after.completed = 1
        #expect(
            lines == Self.prefixOutput + [
                now(4, "27.999999999"), before.line(5),
                evTimer("fired", "28"), ok(2), evCompleted(refreshID, false, at: "28"),
                evSubmitted(refreshID, "928"), evSubmitted(processingID, "928"),
                now(6, "28"), after.line(7),
            ])
    }

    /// safety-timer: advancing past the deadline fires it at its own deadline, not
    /// at the end of the advance.
    @Test func safetyTimerFiresAtItsOwnDeadlineDuringALongAdvance() throws {
        let lines = try Plugin.lines(["--events"], Self.prefix + [advance(4, "100")])
        #expect(
            lines == Self.prefixOutput + [
                evTimer("fired", "28"), ok(2), evCompleted(refreshID, false, at: "28"),
                evSubmitted(refreshID, "928"), evSubmitted(processingID, "928"), now(4, "100"),
            ])
    }

    /// safety-timer: with no task active when it fires, it does nothing. Under `--dispatch
    /// serial` the plugin always invalidates the timer when its task ends, so this is reached
    /// with `--dispatch tauri`: `completeBgTask` on `ipc` has nilled the task out, but not yet
    /// invalidated the timer, when the timer fires on main (choices: four `ipc` steps, then main).
    @Test func safetyTimerNoTaskDoesNothing() throws {
        let schedule = req(4, "plugin/dispatchSchedule", #"{"choices":["ipc","ipc","ipc","ipc","main"]}"#)
        let lines = try Plugin.lines(
            ["--events", "--dispatch", "tauri"],
            Self.prefix + [
                schedule, "[\(req(5, "completeBgTask")),\(advance(6, "28"))]", state(7),
            ])
        var s = StateLine()
        s.now = "28"
        s.scheduled("928")
        s.launched = 1
        s.completed = 1
        #expect(
            lines == Self.prefixOutput + [
                ok(4, #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#),
                // The timer fires (on main) and finds no task: no completion, no reschedule, no cleanup.
                evTimer("fired", "28"),
                // completeBgTask goes on (on ipc): it completes the task, now at 28.
                evCompleted(refreshID, true, at: "28"), rejected(2, "completed"),
                evSubmitted(refreshID, "928"), evSubmitted(processingID, "928"),
                "[\(ok(5)),\(now(6, "28"))]", s.line(7),
            ])
    }

    /// exactly-once: once the expiration handler completed the task, a late
    /// completeBgTask completes nothing again and reports no violation.
    @Test func exactlyOnceAfterExpiration() throws {
        let lines = try Plugin.lines(
            ["--events"], Self.prefix + [expire(4, refreshID), req(5, "completeBgTask"), state(6)])
        var s = StateLine()
        s.scheduled("900")
        s.launched = 1
        s.completed = 1
        s.expired = 1
        #expect(Array(lines.suffix(2)) == [ok(5), s.line(6)])
        #expect(lines.filter { $0.contains("os/taskCompleted") }.count == 1)
    }

    /// exactly-once: once the safety timer completed the task, a late
    /// completeBgTask completes nothing again.
    @Test func exactlyOnceAfterSafetyTimer() throws {
        let lines = try Plugin.lines(
            ["--events"], Self.prefix + [advance(4, "28"), req(5, "completeBgTask"), state(6)])
        var s = StateLine()
        s.now = "28"
        s.scheduled("928")
        s.launched = 1
        s.completed = 1
        #expect(Array(lines.suffix(2)) == [ok(5), s.line(6)])
        #expect(lines.filter { $0.contains("os/taskCompleted") }.count == 1)
    }

    /// exactly-once: a second completion is reported as an `exactly-once` violation
    /// and not performed. Reached with the deliberate `complete-twice` defect.
    @Test func exactlyOnce() throws {
        let run = try Plugin.run(
            ["--events"], Self.prefix + [req(4, "completeBgTask"), state(5)],
            environment: ["BSP_FAULT": "complete-twice"])
        var s = StateLine()
        s.scheduled("900")
        s.launched = 1
        s.completed = 1
        s.violations = 1
        #expect(
            run.lines == Self.prefixOutput + [
                evCompleted(refreshID, true, at: "0"),
                evViolation(
                    "exactly-once",
                    "setTaskCompleted(success: true) called again for \(refreshID) launched at 0; ignored"),
                rejected(2, "completed"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"), evTimer("invalidated", "28"),
                ok(4), s.line(5),
            ])
        #expect(run.stderr.contains("violation of exactly-once"))
    }
}

extension Invoke.Route {
    /// Answers go nowhere.
    static var discard: Invoke.Route { Invoke.Route(sink: Discard(), replyID: nil) }

    private final class Discard: InvokeSink {
        func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route) {}
        func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route) {}
    }
}
