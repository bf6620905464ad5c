import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--profile strict` with two tasks running at once (`--os ios`): no task is let go.
/// Strict completes every active task where the seed completes "whichever is active"
/// (completeBgTask, stopKeepalive, the safety timer), an expiration completes the task
/// that expired, and `cleanup()` clears no task reference (`docs/rules.md`, strict.concurrent-tasks).
@Suite("strict: concurrent tasks")
struct StrictConcurrentTasksTests {
    static let flags = ["--profile", "strict"] + iosFlags()

    /// The finding's day: the refresh's safety timer completes both tasks; nothing is killed.
    @Test func theSafetyTimerCompletesBoth() throws {
        let lines = try Plugin.lines(
            Self.flags, [setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "928"), state(4)])
        #expect(
            Replies.events("os/taskCompleted", in: lines).map { $0["identifier"]?.stringValue }
                == [refreshID, processingID])
        let s = try Replies.state(4, in: lines)
        #expect(s.ios?.runningTasks == [] && s.activeTask == nil && s.counters.violations == 0)
    }

    /// `completeBgTask` completes both (Rust's one service did the work of both).
    @Test func completeBgTaskCompletesBoth() throws {
        let lines = try Plugin.lines(
            Self.flags,
            [setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "900"), req(4, "completeBgTask"), state(5)])
        #expect(
            Replies.events("os/taskCompleted", in: lines).map { $0["identifier"]?.stringValue }
                == [refreshID, processingID])
        #expect(try Replies.state(5, in: lines).ios?.runningTasks == [])
    }

    /// An expiration completes the task that expired; the other stays held (its own budget).
    @Test func anExpirationCompletesItsOwnTask() throws {
        let lines = try Plugin.lines(
            Self.flags,
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "900"), expire(4, processingID),
                state(5), advance(6, "3600"), state(7),
            ])
        #expect(lines.contains(evCompleted(processingID, false, at: "900")))
        let s = try Replies.state(5, in: lines)
        #expect(s.activeTask?.identifier == refreshID)
        #expect(s.ios?.runningTasks.map(\.identifier) == [refreshID] && s.ios?.runningTasks.first?.heldByApp == true)
        let later = try Replies.state(7, in: lines)
        #expect(later.counters.watchdogKills == 0 && later.counters.violations == 0)
    }

    /// A whole day with two tasks at once: every launched task completed, nothing killed.
    @Test func aDayWithTwoTasksAtOnce() throws {
        let lines = try Plugin.lines(
            Self.flags,
            [
                conditions(1, #"{"externalPower":true}"#),
                req(2, "startKeepalive", #"{"iosRequiresExternalPower":true}"#),
                req(3, "waitForCancel"), advance(4, "86400"), state(5),
            ])
        let s = try Replies.state(5, in: lines)
        #expect(s.counters.watchdogKills == 0 && s.counters.violations == 0)
        #expect(s.counters.completed == s.counters.launched - (s.ios?.runningTasks.count ?? 0))
    }
}
