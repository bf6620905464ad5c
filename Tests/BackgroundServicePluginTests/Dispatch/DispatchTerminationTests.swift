import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

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
        let lines = try Plugin.lines(
            Self.flags,
            [
                req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID),
                Dispatching.schedule(4, choices),
                #"[\#(req(5, "completeBgTask")),{"jsonrpc":"2.0","id":6,"method":"os/terminate","#
                    + #""params":{"reason":"system"}}]"#,
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

    /// `--profile strict`: an invoke in the same batch as `os/terminate` is answered, whatever
    /// the schedule: its body hops onto main, behind the termination, and finds no app there
    /// (`terminated`, "the app is not running"). Nothing is dropped, no violation. (It used to
    /// be dropped unanswered with the hop, and reported as a superseded `waitForCancel`.)
    @Test func strictInvokeBesideATerminationIsAnswered() throws {
        let batch = "[\(terminate(4, "system")),\(req(7, "startKeepalive"))]"
        let options = try Dispatching.options(profile: .strict, os: .ios)
        let outcomes = try Dispatching.allSchedules(setup: [], batch: batch, options)
        #expect(outcomes.count == 2)
        for outcome in outcomes {
            let reply = try #require(outcome.lines.last.flatMap(Replies.json)?.arrayValue)
            #expect(reply.map { $0["id"] } == [4, 7], "\(outcome.choices)")
            #expect(reply.last?["error"] == RPCError.appNotRunning.json, "\(outcome.choices)")
        }
        let lines = try Dispatching.lines([batch, state(9)], options)
        let counters = try #require(Replies.result(9, in: lines)?["counters"])
        #expect(counters["dropped"] == 0 && counters["violations"] == 0)
    }

    /// An invoke reaches the app's process as it is when its job starts, not when the batch was
    /// read: after a termination, `[os/openApp, startKeepalive]` runs `startKeepalive` in the new
    /// process when main goes first (as under `serial`), and finds no app when `ipc` goes first.
    /// Both are schedules of one race; under `strict` every schedule is the first.
    @Test func anInvokeFindsTheProcessWhenItsJobStarts() throws {
        let setup = [terminate(1, "system")]
        let batch = "[\(openApp(2)),\(req(3, "startKeepalive"))]"
        func answers(_ outcomes: [Dispatching.Outcome]) -> Set<JSONValue> {
            Set(outcomes.compactMap { $0.lines.last.flatMap(Replies.json)?.arrayValue?.last })
        }
        let ran = try #require(Replies.json(ok(3)))
        let refused: JSONValue = ["error": RPCError.appNotRunning.json, "id": 3, "jsonrpc": "2.0"]
        let seed = try Dispatching.allSchedules(setup: setup, batch: batch, try Dispatching.options(os: .ios))
        #expect(answers(seed) == [ran, refused])
        let mainFirst = try Dispatching.run(
            setup: setup, batch: batch, choices: [.main], try Dispatching.options(os: .ios))
        let serialOptions = try Dispatching.options(.serial, os: .ios)
        let serial = try Dispatching.lines(setup + [batch], serialOptions)
        #expect(mainFirst.lines == Array(serial.dropFirst(try Dispatching.lines(setup, serialOptions).count)))
        let strict = try Dispatching.allSchedules(
            setup: setup, batch: batch, try Dispatching.options(profile: .strict, os: .ios))
        #expect(answers(strict) == [ran])
    }

    /// Any invoke released unanswered outside a statement of the port (a job lost on its way to
    /// the app) is `invoke.never-answered`, not a plain drop: only a `waitForCancel` let go of by
    /// `waitForCancel` itself is (the seed's superseded wait).
    @Test func anInvokeLostOutsideAStatementIsAViolation() throws {
        let engine = try PluginEngine(options: try Dispatching.options(.serial, os: .ios))
        do {
            let route = engine.makeRoute(id: .int(5), batch: nil)
            _ = Invoke(id: .int(5), method: StartKeepalive.name, args: .object([:]), route: route)
        }
        engine.receive(Array("\(state(6))\n".utf8))
        let lines = String(decoding: engine.takeOutput(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(#""rule":"invoke.never-answered""#) == true)
        #expect(lines.first?.contains("request 5 was let go of without an answer outside any statement") == true)
        let counters = try #require(Replies.result(6, in: lines)?["counters"])
        #expect(counters["dropped"] == 1 && counters["violations"] == 1)
    }
}
