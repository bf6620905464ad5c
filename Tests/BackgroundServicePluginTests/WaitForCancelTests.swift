import HostTestSupport
import Testing

/// Contract 3, `waitForCancel` and `cancelCancelListener`.
@Suite("waitForCancel and cancelCancelListener")
struct WaitForCancelTests {
    /// `waitForCancel` is stored whatever the task state (here: none) and not
    /// answered until something answers it.
    @Test func waitForCancelStoredWithoutTask() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "waitForCancel"),
                state(2),
                req(3, "stopKeepalive"),
                state(4),
            ])
        var s = StateLine()
        s.pendingCancelInvoke = "1"
        let pending = s.line(2)
        s.pendingCancelInvoke = nil
        #expect(lines == [pending, rejected(1, "stopped"), ok(3), s.line(4)])
    }

    /// single-pending, `seed`: a second `waitForCancel` replaces the first, which is
    /// dropped and never answered (counted in `counters.dropped`).
    @Test func singlePendingSeed() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "waitForCancel"),
                req(2, "waitForCancel"),
                state(3),
                req(4, "cancelCancelListener"),
                state(5),
            ])
        var s = StateLine()
        s.pendingCancelInvoke = "2"
        s.dropped = 1
        let afterReplace = s.line(3)
        s.pendingCancelInvoke = nil
        #expect(lines == [afterReplace, rejected(2, "listenerCancelled"), ok(4), s.line(5)])
        #expect(!lines.contains { $0.contains(#""id":1,"#) }, "the superseded invoke must never be answered under seed")
    }

    /// single-pending, `seed`: the dropped invoke's id is no longer pending, so it
    /// may be used again.
    @Test func singlePendingSeedFreesTheID() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "waitForCancel"),
                req(2, "waitForCancel"),
                req(1, "cancelCancelListener"),
            ])
        #expect(lines == [rejected(2, "listenerCancelled"), ok(1)])
    }

    /// single-pending, `strict`: the old invoke is rejected with `superseded` at once,
    /// before anything else; the new one is pending.
    @Test func singlePendingStrict() throws {
        let lines = try Plugin.lines(
            ["--profile", "strict"],
            [
                req(1, "waitForCancel"),
                req(2, "waitForCancel"),
                state(3),
                req(4, "cancelCancelListener"),
            ])
        var s = StateLine()
        s.profile = "strict"
        s.pendingCancelInvoke = "2"
        #expect(lines == [rejected(1, "superseded"), s.line(3), rejected(2, "listenerCancelled"), ok(4)])
    }

    /// cancelCancelListener: rejects the pending invoke with `listenerCancelled`, then
    /// resolves; with nothing pending it just resolves. It does not touch the task.
    @Test func cancelCancelListener() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive"),
                launch(2, refreshID),
                req(3, "waitForCancel"),
                req(4, "cancelCancelListener"),
                req(5, "cancelCancelListener"),
                state(6),
            ])
        var s = StateLine()
        s.pendingRequests = [requestJSON(processingID, "900")]
        s.active(refreshID, at: "0")
        s.safetyTimer = "28"
        s.launched = 1
        #expect(
            lines == evScheduled("900") + [
                ok(1),
                evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(2, refreshID, at: "0"),
                rejected(3, "listenerCancelled"), ok(4),
                ok(5),
                s.line(6),
            ])
    }

    /// A `waitForCancel` sent as a notification is ignored: it cannot wait for an answer.
    @Test func waitForCancelNotificationIgnored() throws {
        let lines = try Plugin.lines(
            [],
            [
                note("waitForCancel"),
                state(1),
                req(2, "cancelCancelListener"),
            ])
        #expect(lines == [StateLine().line(1), ok(2)])
    }

    /// A `waitForCancel` inside a batch holds the batch's reply back until it is answered.
    @Test func waitForCancelHoldsBatch() throws {
        let lines = try Plugin.lines(
            [],
            [
                "[\(req(1, "waitForCancel")),\(req(2, "os/advanceTime", #"{"seconds":5}"#))]",
                state(3),
                req(4, "cancelCancelListener"),
            ])
        var s = StateLine()
        s.now = "5"
        s.pendingCancelInvoke = "1"
        #expect(lines == [s.line(3), "[\(rejected(1, "listenerCancelled")),\(now(2, "5"))]", ok(4)])
    }
}
