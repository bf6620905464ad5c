import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--os ios`, rule ios.concurrent-tasks: the OS runs a refresh and a processing task at
/// once (policy `maxConcurrentTasks`, default no limit), each with its own budget; `1`
/// is the seed's one-at-a-time assumption. `--os manual` keeps its one-active rule.
@Suite("ios: concurrent tasks")
struct ConcurrentTasksTests {
    /// Both requests due at 900 launch at 900, refresh first; `plugin/state` lists both
    /// with their own budgets (`runningTask` stays the first launched); `os/explain` says
    /// each is running; neither has a `taskRunning` reason.
    @Test func twoTasksRunAtOnce() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), advance(3, "900"), state(4),
                explain(5, refreshID), explain(6, processingID),
            ])
        #expect(
            Replies.events("os/taskLaunched", in: lines).map { $0["identifier"]?.stringValue }
                == [refreshID, processingID])
        let ios = try #require(try Replies.state(4, in: lines).ios)
        #expect(
            ios.runningTasks == [
                .init(
                    identifier: refreshID, budgetDeadline: VirtualTime(seconds: 930), expiredAt: nil,
                    watchdogDeadline: nil, heldByApp: true),
                .init(
                    identifier: processingID, budgetDeadline: VirtualTime(seconds: 1500), expiredAt: nil,
                    watchdogDeadline: nil, heldByApp: true),
            ])
        // `runningTask` is the first, as it was written before (no `heldByApp`).
        #expect(ios.runningTask?.identifier == refreshID && ios.runningTask?.heldByApp == nil)
        #expect(try Replies.explanation(5, in: lines).status == .running)
        #expect(try Replies.explanation(6, in: lines).status == .running)
    }

    /// `os/launch` of a second identifier while one runs is accepted (no limit); under
    /// `maxConcurrentTasks` 1 it is refused as before; an identifier whose task runs is
    /// never launched again until that task ends.
    @Test func osLaunchFollowsThePolicy() throws {
        let submitRefresh = req(5, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh"}"#)
        let free = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), launch(3, refreshID), launch(4, processingID),
                submitRefresh, launch(6, refreshID),
            ])
        #expect(free.contains(launched(4, processingID, at: "0")))
        #expect(
            free.last
                == failure(
                    6, -32002,
                    "Invalid state: cannot launch \(refreshID): \(refreshID) is already running "
                        + "(the OS launches an identifier again only once its task ends)"))
        let one = try Plugin.lines(
            iosFlags(),
            [setPolicy(1, calmOneTaskPolicy), req(2, "startKeepalive"), launch(3, refreshID), launch(4, processingID)])
        #expect(
            one.last
                == failure(
                    4, -32002,
                    "Invalid state: cannot launch \(processingID): \(refreshID) is still running "
                        + "(the OS runs one task at a time)"))
    }

    /// A limit of 2 with two running names both; the policy writes the member only when
    /// set, and `null` removes it.
    @Test func theLimitIsAPolicyMember() throws {
        let submit = req(8, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh"}"#)
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                setPolicy(1, #"{"maxConcurrentTasks":2}"#), setPolicy(2, #"{"maxConcurrentTasks":null}"#),
                setPolicy(3, calmPolicy), setPolicy(4, #"{"maxConcurrentTasks":2}"#), req(5, "startKeepalive"),
                launch(6, refreshID), launch(7, processingID), submit, launch(9, refreshID),
            ])
        #expect(lines.contains(ok(1, policyJSON(["maxConcurrentTasks": "2"], legacy: true))))
        #expect(lines.contains(ok(2, policyJSON(legacy: true))))
        #expect(
            lines.last
                == failure(
                    9, -32002,
                    "Invalid state: cannot launch \(refreshID): 2 tasks are running (\(refreshID), \(processingID)); "
                        + "maxConcurrentTasks is 2"))
    }
}
