import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// A running task the seed lets go of, a cross-queue race of `--dispatch tauri` that the
/// system-level fuzzer found (D2, `docs/findings.md`): `completeBgTask` (ipc) reads no task
/// (`hadActiveTask` false, seed 210, 213-219) and rejects the pending `waitForCancel`; the
/// launch handler (main) stores the task it was given (108); `completeBgTask`'s `cleanup()`
/// (231) sets `currentRefreshTask = nil` (178). The OS still runs the task, and nothing will
/// ever call `setTaskCompleted`: the safety timer's guard (156) and the expiration handler
/// (135-140) find no task. The plugin reports nothing: no statement is broken on either
/// queue, only the reference is gone.
@Suite("dispatch: a running task let go of between the queues")
struct TaskLetGoTests {
    /// `completeBgTask`'s steps through its pending-invoke rejection, one step of the
    /// launch handler (`currentRefreshTask = task`), then the rest of `completeBgTask`.
    static let schedule =
        Array(repeating: DispatchQueueName.ipc, count: 7) + [.main]
        + Array(repeating: DispatchQueueName.ipc, count: 7)

    @Test func witness() throws {
        let lines = try Plugin.lines(
            DispatchRaceTests.tauri,
            [
                req(1, "startKeepalive"), req(2, "waitForCancel"), Dispatching.schedule(4, Self.schedule),
                "[\(launch(6, refreshID)),\(req(5, "completeBgTask", #"{"success":true}"#))]", state(7),
                req(8, "os/advanceTime", #"{"seconds":100}"#), launch(9, processingID), expire(10, refreshID),
                state(11),
            ])
        var held = StateLine()
        held.pendingRequests = [requestJSON(processingID, "900")]
        held.safetyTimer = "28"
        held.launched = 1
        var after = StateLine()
        after.now = "100"
        after.scheduled("1000")
        (after.launched, after.expired) = (1, 1)
        #expect(
            lines == evScheduled("900") + [
                ok(1), DispatchRaceTests.installed,
                // ipc: completeBgTask finds no task and rejects the pending waitForCancel.
                rejected(2, "completed"),
                // main: the launch handler stores the task, and later starts its timer.
                evLaunched(refreshID, at: "0"), evTimer("started", "28"),
                "[\(launched(6, refreshID, at: "0")),\(ok(5))]",
                // ipc's cleanup() cleared currentRefreshTask: no active task, none completed.
                held.line(7),
                // The timer fires and its guard finds no task; the OS still runs the task.
                evTimer("fired", "28"), now(8, "100"),
                failure(
                    9, -32002,
                    "Invalid state: cannot launch \(processingID): \(refreshID) is still running"
                        + " (the OS runs one task at a time)"),
                // The expiration handler completes nothing: no os/taskCompleted, ever.
                evExpired(refreshID, at: "100"), evSubmitted(refreshID, "1000"), evSubmitted(processingID, "1000"),
                ok(10), after.line(11),
            ])
    }

    /// Under `strict` (every invoke's body hops onto the main queue) the same schedule completes the task.
    @Test func strictCompletesIt() throws {
        let lines = try Plugin.lines(
            DispatchRaceTests.tauri + ["--profile", "strict"],
            [
                req(1, "startKeepalive"), req(2, "waitForCancel"), Dispatching.schedule(4, Self.schedule),
                "[\(launch(6, refreshID)),\(req(5, "completeBgTask", #"{"success":true}"#))]", state(7),
            ])
        #expect(lines.contains(evCompleted(refreshID, true, at: "0")), "\(lines.joined(separator: "\n"))")
        #expect(lines.last?.contains(#""activeTask":null"#) == true)
    }
}
