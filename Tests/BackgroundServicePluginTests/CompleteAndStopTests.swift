import HostTestSupport
import Testing

/// Contract 3, `completeBgTask` and `stopKeepalive`: defaults and the order of outputs.
@Suite("completeBgTask and stopKeepalive")
struct CompleteAndStopTests {
    /// The prefix every test here starts with: keepalive, a pending wait (id 2),
    /// and a launched refresh task (id 3), with events on.
    static let prefix = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
    static let prefixOutput =
        evScheduled("900") + [
            ok(1), evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(3, refreshID, at: "0"),
        ]

    /// success-default, `seed`: `success` absent or not a bool means `true`.
    @Test(arguments: [
        nil, "{}", #"{"success":null}"#, #"{"success":"no"}"#, #"{"success":0}"#, #"{"success":[false]}"#,
    ])
    func successDefault(params: String?) throws {
        let lines = try Plugin.lines(["--events"], Self.prefix + [req(4, "completeBgTask", params)])
        #expect(
            lines == Self.prefixOutput + [
                evCompleted(refreshID, true, at: "0"), rejected(2, "completed"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"), evTimer("invalidated", "28"), ok(4),
            ])
    }

    /// success-default, `strict`: absent means `true`.
    @Test(arguments: [nil, "{}"])
    func successDefaultStrictAbsent(params: String?) throws {
        let lines = try Plugin.lines(
            ["--events", "--profile", "strict"], Self.prefix + [req(4, "completeBgTask", params)])
        #expect(
            lines == Self.prefixOutput + [
                evCompleted(refreshID, true, at: "0"), rejected(2, "completed"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"), evTimer("invalidated", "28"), ok(4),
            ])
    }

    /// success-default, `strict`: a non-bool `success` is -32602 and nothing happens:
    /// the task stays active, the wait stays pending.
    @Test(arguments: [(#"{"success":null}"#, "null"), (#"{"success":"no"}"#, "string"), (#"{"success":0}"#, "number")])
    func successDefaultStrictNonBool(params: String, found: String) throws {
        let lines = try Plugin.lines(
            ["--events", "--profile", "strict"], Self.prefix + [req(4, "completeBgTask", params), state(5)])
        var s = StateLine()
        s.profile = "strict"
        s.active(refreshID, at: "0")
        s.pendingCancelInvoke = "2"
        s.safetyTimer = "28"
        s.launched = 1
        s.pendingRequests = [requestJSON(processingID, "900")]
        #expect(
            lines == Self.prefixOutput + [
                failure(4, -32602, #"Invalid params: \"success\" must be a boolean, got \#(found)"#), s.line(5),
            ])
    }

    /// An explicit boolean is used as given, in both profiles.
    @Test(arguments: ["seed", "strict"])
    func successFalseIsPassedOn(profile: String) throws {
        let lines = try Plugin.lines(
            ["--events", "--profile", profile], Self.prefix + [req(4, "completeBgTask", #"{"success":false}"#)])
        #expect(lines.contains(evCompleted(refreshID, false, at: "0")))
        #expect(!lines.contains(evCompleted(refreshID, true, at: "0")))
    }

    /// completeBgTask order: complete the task (nil-out first), reject the pending
    /// wait with `completed` (written before completeBgTask's own result), schedule
    /// next, invalidate the safety timer, resolve.
    @Test func completeBgTaskOrder() throws {
        let lines = try Plugin.lines(
            ["--events"], Self.prefix + [advance(4, "5"), req(5, "completeBgTask", #"{"success":true}"#), state(6)])
        var s = StateLine()
        s.now = "5"
        s.scheduled("905")
        s.launched = 1
        s.completed = 1
        #expect(
            lines == Self.prefixOutput + [
                now(4, "5"),
                evCompleted(refreshID, true, at: "5"),
                rejected(2, "completed"),
                evSubmitted(refreshID, "905"), evSubmitted(processingID, "905"),
                evTimer("invalidated", "28"),
                ok(5),
                s.line(6),
            ])
    }

    /// completeBgTask order, without events: the rejection still comes first.
    @Test func completeBgTaskOrderWithoutEvents() throws {
        let lines = try Plugin.lines([], Self.prefix + [req(4, "completeBgTask")])
        #expect(lines == [ok(1), launched(3, refreshID, at: "0"), rejected(2, "completed"), ok(4)])
    }

    /// completeBgTask with no task active: rejects the pending wait, completes
    /// nothing and does not reschedule.
    @Test func completeBgTaskWithoutTaskDoesNotReschedule() throws {
        let lines = try Plugin.lines(["--events"], [req(1, "waitForCancel"), req(2, "completeBgTask"), state(3)])
        #expect(lines == [rejected(1, "completed"), ok(2), StateLine().line(3)])
    }

    /// stopKeepalive order: cancel both requests, reject the pending wait with
    /// `stopped`, complete the active task with `false`, clean up, resolve. Never reschedules.
    @Test func stopKeepaliveOrder() throws {
        let lines = try Plugin.lines(["--events"], Self.prefix + [req(4, "stopKeepalive"), state(5)])
        var s = StateLine()
        s.launched = 1
        s.completed = 1
        #expect(
            lines == Self.prefixOutput + [
                evCancelled(processingID),
                rejected(2, "stopped"),
                evCompleted(refreshID, false, at: "0"),
                evTimer("invalidated", "28"),
                ok(4),
                s.line(5),
            ])
    }

    /// stopKeepalive with no task active: both requests cancelled, the wait rejected
    /// with `stopped` all the same (a foreground stop), no completion.
    @Test func stopKeepaliveWithoutTask() throws {
        let lines = try Plugin.lines(
            ["--events"], [req(1, "startKeepalive"), req(2, "waitForCancel"), req(3, "stopKeepalive"), state(4)])
        #expect(
            lines == evScheduled("900") + [
                ok(1), evCancelled(refreshID), evCancelled(processingID), rejected(2, "stopped"), ok(3),
                StateLine().line(4),
            ])
    }

    /// A late completeBgTask after stopKeepalive finds no task: nothing is completed
    /// twice and nothing is rescheduled.
    @Test func completeAfterStopIsHarmless() throws {
        let lines = try Plugin.lines(
            ["--events"], Self.prefix + [req(4, "stopKeepalive"), req(5, "completeBgTask"), state(6)])
        var s = StateLine()
        s.launched = 1
        s.completed = 1
        #expect(Array(lines.suffix(2)) == [ok(5), s.line(6)])
    }
}
