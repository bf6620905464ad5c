@testable import BackgroundServicePlugin
import HostProtocol
import Testing

/// `--os ios` with `--dispatch tauri`: a process that ends in the middle of a batch takes its
/// queued `ipc` jobs with it.
@Suite("dispatch: the app's process ends mid-batch")
struct DispatchTerminationTests {
    static let flags = ["--events", "--dispatch", "tauri", "--os", "ios"]
    static let ipc = DispatchQueueName.ipc, main = DispatchQueueName.main

    /// `completeBgTask` (ipc) has read the task when `os/terminate` (main) ends the process: its
    /// remaining statements never run (no completion of a task the dead process no longer has),
    /// and its invoke is answered `terminated` like every invoke the process held.
    @Test func aQueuedInvokeDiesWithItsProcess() throws {
        let choices = [Self.ipc, .ipc, .ipc] + Array(repeating: Self.main, count: 19)
        let lines = try Plugin.lines(Self.flags, [
            req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID),
            Dispatching.schedule(4, choices),
            #"[\#(req(5, "completeBgTask")),{"jsonrpc":"2.0","id":6,"method":"os/terminate","params":{"reason":"system"}}]"#,
            state(7),
        ])
        let batch = try #require(lines.first { $0.hasPrefix("[") })
        let replies = try #require(try JSONParser.parse(Array(batch.utf8)).arrayValue)
        #expect(replies.count == 2)
        #expect(replies.first?["id"] == 5)
        #expect(replies.first?["error"]?["data"]?["reason"] == "terminated")
        #expect(replies.last?["result"]?["phase"] == "notRunning")
        // The wait the process held is answered `terminated` too, and nothing is completed twice.
        #expect(lines.contains { $0.contains(#""id":2"#) && $0.contains("terminated") })
        #expect(!lines.contains { $0.contains("exactly-once") })
        #expect(!lines.contains { $0.contains("os/taskCompleted") })
    }
}
