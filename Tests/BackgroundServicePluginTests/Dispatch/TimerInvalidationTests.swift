import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `Timer.invalidate()` off its thread (issue 22): under `--dispatch tauri`, `cleanup()` in
/// `completeBgTask` runs on `ipc` and invalidates the safety timer the launch handler
/// scheduled on the main run loop (seed lines 181, 231). Apple: such a timer "may not be
/// removed from its run loop". The schedule's `invalidations` choose; the default is `removed`.
@Suite("Timer.invalidate() off its thread")
struct TimerInvalidationTests {
    /// A refresh task launched at 0 (safety timer at 28), the schedule installed, the task
    /// completed from `ipc` (its `cleanup()` invalidates off-thread), a second launch at 10
    /// (its timer at 38), the clock to 28, and the schedule's report.
    static func script(_ invalidations: String?) -> [String] {
        let params = invalidations.map { #"{"invalidations":[\#($0)]}"# } ?? "{}"
        return [
            req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID),
            req(4, "plugin/dispatchSchedule", params), req(5, "completeBgTask"), advance(6, "10"),
            launch(7, refreshID), advance(8, "18"), req(9, "plugin/dispatchSchedule", "{}"),
        ]
    }

    static let head =
        evScheduled("900") + [
            ok(1), evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(3, refreshID, at: "0"),
            ok(4, #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#),
            evCompleted(refreshID, true, at: "0"), rejected(2, "completed"),
        ] + evScheduled("900")

    /// Removed: the first timer never fires; the second task runs on past 28 (its own timer at 38).
    static func removedTail(report: String) -> [String] {
        [
            evTimer("invalidated", "28"), ok(5), now(6, "10"),
            evLaunched(refreshID, at: "10"), evTimer("started", "38"), launched(7, refreshID, at: "10"),
            now(8, "28"), ok(9, report),
        ]
    }

    /// By default (no `invalidations` installed) the off-thread invalidation removes the
    /// timer, as before the choice existed, and the report has no `invalidations` member.
    @Test func removedByDefault() throws {
        let lines = try Plugin.lines(["--events", "--dispatch", "tauri"], Self.script(nil))
        #expect(
            lines == Self.head + Self.removedTail(report: #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#))
    }

    /// `removed`, chosen: the same bytes, and the report records the choice.
    @Test func removedWhenChosen() throws {
        let lines = try Plugin.lines(["--events", "--dispatch", "tauri"], Self.script(#""removed""#))
        let report = #"{"decisions":0,"dispatch":"tauri","invalidations":["removed"],"taken":[],"unused":0}"#
        #expect(lines == Self.head + Self.removedTail(report: report))
    }

    /// `notRemoved`: the timer stays in its run loop (no `invalidated` event), the seed sets
    /// `safetyTimer = nil` (182), a second task is launched at 10 and starts its own timer
    /// (38); at 28 the first task's timer fires on main and `handleSafetyTimerExpiration`
    /// (156-165) force-completes the second task after 18 s of its 28, then its `cleanup()`
    /// (on main) invalidates the second timer.
    @Test func notRemovedStillFires() throws {
        let lines = try Plugin.lines(["--events", "--dispatch", "tauri"], Self.script(#""notRemoved""#))
        #expect(
            lines == Self.head + [
                ok(5), now(6, "10"),
                evLaunched(refreshID, at: "10"), evTimer("started", "38"), launched(7, refreshID, at: "10"),
                evTimer("fired", "28"), evCompleted(refreshID, false, at: "28"),
            ] + evScheduled("928") + [
                evTimer("invalidated", "38"), now(8, "28"),
                ok(9, #"{"decisions":0,"dispatch":"tauri","invalidations":["notRemoved"],"taken":[],"unused":0}"#),
            ])
    }

    /// Under `--dispatch serial` there is one executor: an installed `notRemoved` is never taken.
    @Test func serialAlwaysRemoves() throws {
        let lines = try Plugin.lines(["--events", "--dispatch", "serial"], Self.script(#""notRemoved""#))
        #expect(lines.contains(evTimer("invalidated", "28")))
        #expect(!lines.contains(evTimer("fired", "28")))
        #expect(lines.last == ok(9, #"{"decisions":0,"dispatch":"serial","taken":[],"unused":0}"#))
    }

    /// Under `--profile strict` the body runs on main (the timer's own thread): removed, no choice taken.
    @Test func strictInvalidatesOnItsThread() throws {
        let lines = try Plugin.lines(
            ["--events", "--dispatch", "tauri", "--profile", "strict"], Self.script(#""notRemoved""#))
        #expect(lines.contains(evTimer("invalidated", "28")))
        #expect(!lines.contains(evTimer("fired", "28")))
        #expect(lines.last?.contains("invalidations") == false)
    }

    /// Bad `invalidations` are -32602 naming the member.
    @Test func badInvalidations() throws {
        let lines = try Plugin.lines(
            ["--dispatch", "tauri"],
            [
                req(1, "plugin/dispatchSchedule", #"{"invalidations":["x"]}"#),
                req(2, "plugin/dispatchSchedule", #"{"invalidations":"removed"}"#),
            ])
        #expect(lines.count == 2)
        #expect(
            lines[0].contains("-32602") && lines[0].contains(#"invalidations[0]"#) && lines[0].contains("notRemoved"))
        #expect(lines[1].contains("-32602") && lines[1].contains("invalidations"))
    }
}
