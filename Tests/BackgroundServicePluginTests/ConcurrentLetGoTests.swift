import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// Finding "completing one task lets go of the other" (`docs/findings.md`): with a refresh
/// and a processing task running at once (`--os ios`, the default `maxConcurrentTasks`),
/// the seed keeps one reference per kind but one `safetyTimer` and one `cleanup()`
/// (seed lines 177-183), which sets both references to nil. Completing the refresh task
/// (its safety timer, seed 154-173, or `completeBgTask`, seed 204-234) lets go of the
/// processing task: nothing in the app will complete it; the OS expires it at its budget,
/// its expiration handler finds no task (seed 135-141), and the watchdog kills the app.
@Suite("finding: completing one task lets go of the other")
struct ConcurrentLetGoTests {
    /// Both tasks at 900; the refresh's safety timer (28 s) completes it at 928 and
    /// `cleanup()` drops the processing task too; at 1500 (its 600 s budget) the OS
    /// expires it, nothing completes it, and at 1505 the watchdog kills the app.
    @Test func theSafetyTimerLetsGoOfTheProcessingTask() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "900"), advance(4, "28"), state(5),
                advance(6, "572"), state(7), advance(8, "5"), state(9),
            ])
        let afterTimer = try Replies.state(5, in: lines)
        // The plugin holds no task (both references nil, seed 178-179); the OS still runs one.
        #expect(afterTimer.activeTask == nil && afterTimer.safetyTimer == nil)
        #expect(afterTimer.ios?.runningTasks.map(\.identifier) == [processingID])
        #expect(
            Replies.events("os/taskCompleted", in: lines).map { $0["identifier"]?.stringValue } == [refreshID])
        let expired = try Replies.state(7, in: lines).ios?.runningTasks
        #expect(
            expired == [
                .init(
                    identifier: processingID, budgetDeadline: nil, expiredAt: VirtualTime(seconds: 1500),
                    watchdogDeadline: VirtualTime(seconds: 1505), heldByApp: false)
            ])
        #expect(lines.contains(evExpired(processingID, at: "1500", cause: "budget")))
        #expect(
            lines.contains(
                evViolation(
                    "ios.watchdog",
                    "\(processingID) was not completed within 5 s after its expiration handler ran at 1500; "
                        + "the system killed the app (call setTaskCompleted promptly on expiration)")))
        #expect(lines.contains(evAppTerminated("watchdog", at: "1505", identifier: processingID)))
        let killed = try Replies.state(9, in: lines)
        #expect(killed.counters.watchdogKills == 1 && killed.ios?.runningTasks == [])
    }

    /// The same through `completeBgTask` (Rust finishing its work, seed 213-219 then
    /// `cleanup()` at 231): it completes the refresh task only, and lets go of the other.
    @Test func completeBgTaskLetsGoOfTheProcessingTask() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "900"), req(4, "completeBgTask"),
                state(5), advance(6, "605"), state(7),
            ])
        #expect(
            Replies.events("os/taskCompleted", in: lines).map { $0["identifier"]?.stringValue } == [refreshID])
        let s = try Replies.state(5, in: lines)
        #expect(s.activeTask == nil && s.ios?.runningTasks.map(\.identifier) == [processingID])
        #expect(lines.contains(evAppTerminated("watchdog", at: "1505", identifier: processingID)))
        #expect(try Replies.state(7, in: lines).counters.watchdogKills == 1)
    }

    /// One task at a time (`maxConcurrentTasks` 1, the seed's assumption): the same hours
    /// complete every launched task and nothing is killed.
    @Test func oneAtATimeHidesIt() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [setPolicy(1, calmOneTaskPolicy), req(2, "startKeepalive"), advance(3, "7200"), state(4)])
        let s = try Replies.state(4, in: lines)
        #expect(s.counters.watchdogKills == 0 && s.counters.violations == 0 && s.counters.launched >= 3)
        #expect(s.counters.completed == s.counters.launched - (s.activeTask == nil ? 0 : 1))
    }
}
