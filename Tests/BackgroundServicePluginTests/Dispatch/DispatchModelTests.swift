import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--dispatch`: serial is today's plugin, byte for byte; what runs at once under `tauri`; the
/// `strict` fix; `plugin/dispatchSchedule`.
@Suite("dispatch: modes, the concurrency unit, the schedule")
struct DispatchModelTests {
    static let script = DeterminismTests.script(seed: 0x5EED_2024, count: 600)

    /// `--dispatch serial` (and any `--dispatch-seed`) is the default, byte for byte; `tauri`
    /// on a script without batches is too: a lone frame runs alone.
    @Test(arguments: ["seed", "strict"])
    func serialIsTodaysPlugin(profile: String) throws {
        let base = ["--events", "--profile", profile]
        let today = try Plugin.run(base, Self.script)
        #expect(try Plugin.run(base + ["--dispatch", "serial"], Self.script).stdout == today.stdout)
        let seeded = try Plugin.run(base + ["--dispatch", "serial", "--dispatch-seed", "7"], Self.script)
        #expect(seeded.stdout == today.stdout)
        let single = Self.script.filter { !$0.hasPrefix("[") }
        #expect(single.count < Self.script.count)
        let tauri = try Plugin.run(base + ["--dispatch", "tauri"], single)
        #expect(try Plugin.run(base, single).stdout == tauri.stdout)
    }

    /// Under `tauri` the output stays a pure function of input and flags: twice the same bytes,
    /// and the same bytes whether the input comes in one piece or byte by byte.
    @Test(arguments: [Profile.seed, .strict])
    func tauriIsDeterministic(profile: Profile) throws {
        let args = ["--events", "--dispatch", "tauri", "--dispatch-seed", "3", "--profile", profile.rawValue]
        let first = try Plugin.run(args, Self.script)
        let again = try Plugin.run(args, Self.script)
        #expect(first.status == 0 && first.stdout == again.stdout)
        let options = try Dispatching.options(profile: profile, seed: 3)
        let short = Array(Self.script.prefix(150))
        #expect(try Dispatching.lines(short, options) == (try Dispatching.lines(short, options, byteByByte: true)))
    }

    /// `--profile strict`: every invoke body hops onto the main queue, so for every schedule
    /// of these batches the output is the same, with no violation and nothing dropped.
    @Test(arguments: [
        "[\(req(10, "completeBgTask")),\(expire(11, refreshID))]",
        "[\(req(10, "waitForCancel")),\(expire(11, refreshID))]",
        "[\(req(10, "cancelCancelListener")),\(expire(11, refreshID))]",
        "[\(req(10, "stopKeepalive")),\(advance(11, "28"))]",
        "[\(req(10, "completeBgTask")),\(advance(11, "28")),\(req(12, "waitForCancel"))]",
    ])
    func strictHasNoRaces(batch: String) throws {
        try Self.expectNoRaces(batch: batch, os: .manual)
    }

    /// The same under `--os ios` with the app's lifecycle in the batch: an invoke beside an
    /// `os/terminate` is answered (`terminated`: the app is not running when its body runs),
    /// one beside `os/openApp` runs in the new process.
    @Test(arguments: [
        "[\(terminate(4, "system")),\(req(7, "startKeepalive"))]",
        "[\(req(10, "waitForCancel")),\(terminate(11, "system")),\(req(12, "completeBgTask"))]",
        "[\(terminate(11, "forceQuit")),\(openApp(12)),\(req(13, "startKeepalive")),\(req(14, "waitForCancel"))]",
        "[\(req(10, "stopKeepalive")),\(expire(11, refreshID)),\(terminate(12, "system"))]",
    ])
    func strictHasNoRacesUnderIOS(batch: String) throws {
        try Self.expectNoRaces(batch: batch, os: .ios)
    }

    private static func expectNoRaces(batch: String, os: OSMode) throws {
        let setup = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
        let options = try Dispatching.options(profile: .strict, os: os)
        let strict = try Dispatching.allSchedules(setup: setup, batch: batch, options)
        #expect(strict.count > 1, "the batch has decisions to make")
        #expect(Set(strict.map(\.lines)).count == 1, "every schedule gives the same output")
        for outcome in strict {
            #expect(!outcome.text.contains("os/violation"), "\(outcome.choices): \(outcome.text)")
        }
        let state = try Dispatching.lines(
            setup + [Dispatching.schedule(9, strict[0].choices), batch, state(20)], options)
        #expect(state.last?.contains(#""dropped":0"#) == true)
        #expect(state.last?.contains(#""violations":0"#) == true)
    }

    /// Under `strict` a batch runs as if its `os/` controls came first, then its invokes, each
    /// in request order (the hops land behind the `os/` jobs already queued on main): the same
    /// events and replies as `serial` on that reordered batch. An oracle for a fuzzer.
    @Test(arguments: [
        [req(10, "completeBgTask"), expire(11, refreshID)],
        [req(10, "waitForCancel"), req(12, "cancelCancelListener"), advance(11, "28")],
        [req(10, "stopKeepalive"), launch(11, refreshID), req(12, "startKeepalive"), expire(13, refreshID)],
    ])
    func strictRunsOSControlsThenInvokes(members: [String]) throws {
        try Self.expectReorderedSerial(members, os: .manual)
    }

    /// The same under `--os ios`, with the app's lifecycle: an invoke reaches the process that
    /// runs after the batch's `os/` controls (none after `os/terminate`, the new one after
    /// `os/openApp`), as under `serial` on the reordered batch.
    @Test(arguments: [
        [terminate(4, "system"), req(7, "startKeepalive")],
        [req(10, "startKeepalive"), terminate(11, "system"), openApp(12)],
        [req(10, "waitForCancel"), terminate(11, "forceQuit"), req(12, "completeBgTask"), openApp(13)],
        [req(10, "completeBgTask"), expire(11, refreshID), terminate(12, "system"), req(13, "waitForCancel")],
    ])
    func strictRunsOSControlsThenInvokesUnderIOS(members: [String]) throws {
        try Self.expectReorderedSerial(members, os: .ios)
    }

    private static func expectReorderedSerial(_ members: [String], os: OSMode) throws {
        let setup = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
        let tauri = try Dispatching.lines(
            setup + ["[\(members.joined(separator: ","))]"],
            try Dispatching.options(profile: .strict, seed: 11, os: os))
        let reordered = members.filter { $0.contains("\"os/") } + members.filter { !$0.contains("\"os/") }
        let serial = try Dispatching.lines(
            setup + ["[\(reordered.joined(separator: ","))]"],
            try Dispatching.options(.serial, profile: .strict, os: os))
        #expect(tauri.dropLast() == serial.dropLast())
        #expect(try replies(tauri.last).count == members.count)
        #expect(try replies(tauri.last) == replies(serial.last))
    }

    private static func replies(_ line: String?) throws -> Set<JSONValue> {
        Set(try #require(try JSONParser.parse(Array((line ?? "").utf8)).arrayValue))
    }

    /// The same batch under `seed` does race: some schedules differ (the model is not vacuous).
    @Test func seedSchedulesDiffer() throws {
        let setup = [req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID)]
        let outcomes = try Dispatching.allSchedules(
            setup: setup, batch: "[\(req(10, "waitForCancel")),\(expire(11, refreshID))]", try Dispatching.options())
        #expect(Set(outcomes.map(\.lines)).count > 1)
    }

    /// A session method in a batch is a barrier: the jobs queued before it run to their end
    /// first. Here `plugin/state` sees the completion, and `os/expire` finds no task.
    @Test func sessionMethodsAreBarriers() throws {
        let lines = try Plugin.lines(
            ["--events", "--dispatch", "tauri"],
            [
                req(1, "startKeepalive"), launch(2, refreshID),
                "[\(req(3, "completeBgTask")),\(state(4)),\(expire(5, refreshID))]",
            ])
        let reply = try #require(lines.last)
        #expect(reply.contains(#""activeTask":null"#) && reply.contains(#""completed":1"#))
        #expect(reply.contains(#""code":-32002"#) && reply.contains("is not running"))
    }

    /// `rpc.discover` is a barrier too (every method that is neither an invoke nor an `os/`
    /// control is): whatever the schedule, `completeBgTask` runs to its end before it, and the
    /// `os/expire` after it finds no task.
    @Test func discoveryIsABarrier() throws {
        let setup = [req(1, "startKeepalive"), launch(2, refreshID)]
        let batch = "[\(req(3, "completeBgTask")),\(req(4, "rpc.discover")),\(expire(5, refreshID))]"
        let outcomes = try Dispatching.allSchedules(setup: setup, batch: batch, try Dispatching.options())
        for outcome in outcomes {
            let reply = try #require(outcome.lines.last.flatMap(Replies.json)?.arrayValue)
            #expect(reply.count == 3 && reply.last?["error"]?["code"] == -32002, "\(outcome.choices)")
        }
    }

    /// Under `tauri` a batch's requests are all in flight until the batch has run: a second
    /// request with the same id is a duplicate pending id (-32600). Under `serial` the first is
    /// answered before the second is read.
    @Test func duplicateIDsInATauriBatch() throws {
        let batch = "[\(req(3, "cancelCancelListener")),\(req(3, "cancelCancelListener"))]"
        let tauri = try Plugin.lines(["--dispatch", "tauri"], [batch])
        let duplicate = failure(3, -32600, "Invalid Request: id 3 is already used by a pending request")
        #expect(tauri == ["[\(ok(3)),\(duplicate)]"])
        #expect(try Plugin.lines([], [batch]) == ["[\(ok(3)),\(ok(3))]"])
    }

    /// `plugin/dispatchSchedule`: reports the decisions since the previous call, installs the
    /// next choices; `plugin/reset` starts the schedule over; bad params are -32602.
    @Test func scheduleControl() throws {
        let batch = "[\(req(3, "completeBgTask")),\(expire(4, refreshID))]"
        let setup = [req(1, "startKeepalive"), launch(2, refreshID)]
        let lines = try Plugin.lines(
            ["--dispatch", "tauri"],
            setup + [
                req(5, "plugin/dispatchSchedule", #"{"choices":["main","main"]}"#), batch,
                req(6, "plugin/dispatchSchedule", #"{"choices":["ipc"],"seed":9}"#),
                req(7, "plugin/reset"), req(8, "plugin/dispatchSchedule"),
                req(9, "plugin/dispatchSchedule", #"{"choices":["both"]}"#),
                req(10, "plugin/dispatchSchedule", #"{"seed":-1}"#),
            ])
        #expect(lines.contains(ok(5, #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#)))
        let report = try #require(lines.first { $0.hasPrefix(#"{"id":6,"#) })
        #expect(report.contains(#""taken":["main","main","#) && report.contains(#""unused":0"#))
        #expect(lines.contains(ok(8, #"{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}"#)))
        for id in [9, 10] {
            let tail = #""id":\#(id),"jsonrpc":"2.0"}"#
            #expect(lines.contains { $0.hasPrefix(#"{"error":{"code":-32602"#) && $0.hasSuffix(tail) })
        }
        let serial = try Plugin.lines(
            [],
            setup + [
                req(5, "plugin/dispatchSchedule", #"{"choices":["main"]}"#), batch,
                req(6, "plugin/dispatchSchedule"),
            ])
        #expect(serial.last == ok(6, #"{"decisions":0,"dispatch":"serial","taken":[],"unused":1}"#))
    }

    /// A bad `plugin/dispatchSchedule` param is -32602 naming the member, what it may be (the
    /// seed's range, the queue names) and what it was.
    @Test(arguments: [
        (
            #"{"seed":18446744073709551615}"#,
            #"\"seed\" must be an integer from 0 to 9223372036854775807, got 18446744073709551615"#
        ),
        (#"{"seed":-1}"#, #"\"seed\" must be an integer from 0 to 9223372036854775807, got -1"#),
        (#"{"seed":1.5}"#, #"\"seed\" must be an integer from 0 to 9223372036854775807, got 1.5"#),
        (#"{"choices":["ipc","x"]}"#, #"\"choices[1]\" must be \"ipc\" or \"main\", got \"x\""#),
        (#"{"choices":"ipc"}"#, #"\"choices\" must be an array of queue names, got string"#),
    ])
    func scheduleParamErrorsNameWhatIsAllowed(params: String, message: String) throws {
        let lines = try Plugin.lines(["--dispatch", "tauri"], [req(1, "plugin/dispatchSchedule", params)])
        #expect(lines == [failure(1, -32602, "Invalid params: " + message)])
    }

    /// `plugin/reset` starts the PRNG over: the same case after a reset gives the same bytes
    /// as in a fresh process (what a fuzzer reusing one process needs).
    @Test func resetReseeds() throws {
        let script = [
            req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID),
            "[\(req(4, "completeBgTask")),\(expire(5, refreshID))]",
        ]
        let args = ["--events", "--dispatch", "tauri", "--dispatch-seed", "5"]
        let fresh = try Plugin.lines(args, script)
        let reused = try Plugin.lines(args, script + [req(6, "plugin/reset")] + script)
        #expect(Array(reused.suffix(fresh.count)) == fresh)
    }

    /// Usage errors for the two flags (exit 64), and `--help` documents them.
    @Test(arguments: [["--dispatch", "both"], ["--dispatch"], ["--dispatch-seed", "-1"], ["--dispatch-seed", "x"]])
    func usageErrors(arguments: [String]) throws {
        let run = try Plugin.run(arguments, [state(1)])
        #expect(run.status == 64)
        #expect(run.stderr.contains("usage: background-service-plugin"))
    }

    @Test func helpDocumentsTheFlags() throws {
        let help = String(decoding: try Plugin.run(["--help"], []).stdout, as: UTF8.self)
        #expect(help.contains("--dispatch serial|tauri") && help.contains("--dispatch-seed N"))
    }
}
