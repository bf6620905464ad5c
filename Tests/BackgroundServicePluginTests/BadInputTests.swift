import HostTestSupport
import Testing

/// Issue 2's bad inputs (contract 1 and 2): each gets the contract's reply and
/// the plugin keeps serving (the `plugin/state` after it is answered).
@Suite("bad inputs, ndjson")
struct BadInputTests {
    static let fresh = StateLine()

    /// Sends a good request (fixing the framing as ndjson), `bad`, then plugin/state.
    static func check(_ bad: [UInt8], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let input = Array((advance(1, "1") + "\n").utf8) + bad + Array(("\n" + state(2) + "\n").utf8)
        let run = try Plugin.run([], input: input)
        var s = StateLine()
        s.now = "1"
        #expect(run.status == 0, sourceLocation: sourceLocation)
        #expect(run.lines == [now(1, "1")] + expected + [s.line(2)], sourceLocation: sourceLocation)
    }

    static func check(_ bad: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try check(Array(bad.utf8), expected, sourceLocation: sourceLocation)
    }

    static func notARequest(_ found: String) -> String {
        failure("null", -32600, "Invalid Request: expected a request object, got \(found)")
    }

    @Test(arguments: [
        ("{not json", failure("null", -32700, "Parse error: expected a string key at byte 1")),
        (
            #"{"jsonrpc":"2.0","id":3,"method":"plugin/state"} trailing"#,
            failure("null", -32700, "Parse error: unexpected data after the JSON value at byte 49")
        ),
        (#""hello""#, notARequest("string")),
        ("42", notARequest("number")),
        ("null", notARequest("null")),
        (#"{"id":5,"method":"plugin/state"}"#, failure(5, -32600, #"Invalid Request: missing \"jsonrpc\": \"2.0\""#)),
        (
            #"{"jsonrpc":"1.0","id":5,"method":"plugin/state"}"#,
            failure(5, -32600, #"Invalid Request: \"jsonrpc\" must be \"2.0\", got \"1.0\""#)
        ),
        (
            #"{"jsonrpc":2,"id":"x","method":"plugin/state"}"#,
            failure(#""x""#, -32600, #"Invalid Request: \"jsonrpc\" must be \"2.0\", got 2"#)
        ),
        (
            #"{"jsonrpc":"2.0","id":6,"method":7}"#,
            failure(6, -32600, #"Invalid Request: \"method\" must be a string, got number"#)
        ),
        (
            #"{"jsonrpc":"2.0","id":{},"method":"plugin/state"}"#,
            failure("null", -32600, #"Invalid Request: \"id\" must be a string, a number or null, got object"#)
        ),
        (
            #"{"jsonrpc":"2.0","id":7,"method":"plugin/state","params":[1]}"#,
            failure(7, -32602, "Invalid params: params must be an object (named parameters), not an array")
        ),
        (
            #"{"jsonrpc":"2.0","id":8,"method":"plugin/state","params":3}"#,
            failure(8, -32600, #"Invalid Request: \"params\" must be an object, got number"#)
        ),
        (
            #"{"jsonrpc":"2.0","id":8,"method":"plugin/state","params":"p"}"#,
            failure(8, -32600, #"Invalid Request: \"params\" must be an object, got string"#)
        ),
        (#"{"jsonrpc":"2.0","id":9,"method":"nope"}"#, failure(9, -32601, "Method not found: nope")),
        (#"{"jsonrpc":"2.0","id":9,"method":"nope","params":[1]}"#, failure(9, -32601, "Method not found: nope")),
        (
            #"{"jsonrpc":"2.0","id":11,"result":1}"#,
            failure(11, -32600, "Invalid Request: the plugin takes requests; a response object was sent")
        ),
        ("[]", failure("null", -32600, "Invalid Request: empty batch")),
    ])
    func badLine(line: String, reply: String) throws {
        try Self.check(line, [reply])
    }

    /// Invalid UTF-8 inside a string is -32700.
    @Test func invalidUTF8() throws {
        try Self.check(
            Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8),
            [failure("null", -32700, "Parse error: invalid UTF-8 in string at byte 34")])
    }

    /// A line of 100,000 nested `[` is refused without exhausting the stack.
    @Test func deepNesting() throws {
        try Self.check(
            String(repeating: "[", count: 100_000),
            [failure("null", -32700, "Parse error: nesting deeper than 256 levels at byte 256")])
    }

    /// A batch of junk: one error per member, in order, as one array.
    @Test func batchOfJunk() throws {
        try Self.check(
            #"[1,"x",{}]"#,
            [
                "["
                    + [
                        Self.notARequest("number"), Self.notARequest("string"),
                        failure("null", -32600, #"Invalid Request: missing \"jsonrpc\": \"2.0\""#),
                    ].joined(separator: ",") + "]"
            ])
    }

    /// A batch mixing requests and notifications: only the requests are answered,
    /// in request order; the notifications still run (here one cancels the wait).
    @Test func batchMixed() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "waitForCancel"),
                "[\(advance(2, "1")),\(note("cancelCancelListener")),\(req(3, "nope")),"
                    + "\(note("os/advanceTime", #"{"seconds":2}"#)),\(state(4))]",
            ])
        var s = StateLine()
        s.now = "3"
        #expect(
            lines == [
                rejected(1, "listenerCancelled"),
                "[\(now(2, "1")),\(failure(3, -32601, "Method not found: nope")),\(s.line(4))]",
            ])
    }

    /// A batch of only notifications gets no reply at all (even failing ones).
    @Test func batchOfNotifications() throws {
        try Self.check(
            "[\(note("cancelCancelListener")),\(note("nope")),\(note("os/launch", #"{"identifier":"x"}"#))]", [])
    }

    /// Notifications are never answered, not even with an error.
    @Test(arguments: [
        note("plugin/state"), note("nope"), note("os/advanceTime", #"{"seconds":-1}"#), note("os/launch", "[1]"),
        note("completeBgTask"),
    ])
    func notificationNotAnswered(line: String) throws {
        try Self.check(line, [])
    }

    /// The invokes sent as notifications run as usual, their answers unwritten.
    @Test func invokeNotificationsRun() throws {
        let lines = try Plugin.lines(
            [],
            [
                note("startKeepalive", #"{"iosSafetyTimeoutSecs":5}"#), launch(1, refreshID),
                note("completeBgTask", #"{"success":false}"#), state(2),
            ])
        var s = StateLine()
        s.config.safety = "5"
        s.scheduled("900")
        s.launched = 1
        s.completed = 1
        #expect(lines == [launched(1, refreshID, at: "0"), s.line(2)])
    }

    /// A request reusing the id of a pending request gets -32600; the pending one is untouched.
    @Test func duplicatePendingID() throws {
        let lines = try Plugin.lines([], [req(1, "waitForCancel"), state(1), req(2, "cancelCancelListener"), state(1)])
        #expect(
            lines == [
                failure(1, -32600, "Invalid Request: id 1 is already used by a pending request"),
                rejected(1, "listenerCancelled"), ok(2),
                Self.fresh.line(1),
            ])
    }

    /// Ids of different types or literals are different ids.
    @Test func idsKeepTheirType() throws {
        let lines = try Plugin.lines(
            [],
            [
                #"{"jsonrpc":"2.0","id":"1","method":"waitForCancel"}"#, state(1),
                #"{"jsonrpc":"2.0","id":1.0,"method":"os/advanceTime","params":{"seconds":0}}"#,
                #"{"jsonrpc":"2.0","id":null,"method":"os/advanceTime","params":{"seconds":0}}"#,
            ])
        var s = StateLine()
        s.pendingCancelInvoke = #""1""#
        #expect(
            lines == [
                s.line(1), #"{"id":1.0,"jsonrpc":"2.0","result":{"now":0}}"#,
                #"{"id":null,"jsonrpc":"2.0","result":{"now":0}}"#,
            ])
    }

    /// A frame longer than --max-frame-bytes is -32600 with id null, and skipped.
    @Test func oversizedFrame() throws {
        let long =
            #"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":""# + String(repeating: "y", count: 200) + #""}}"#
        let lines = try Plugin.lines(["--max-frame-bytes", "80"], [long, state(2)])
        #expect(
            lines == [
                failure("null", -32600, "Invalid Request: frame exceeds the limit of 80 bytes"), Self.fresh.line(2),
            ])
    }

    /// Empty and whitespace-only lines are skipped; `\r\n` endings are accepted.
    @Test func blankLinesAndCRLF() throws {
        let run = try Plugin.run([], input: Array("\n  \n\(advance(1, "1"))\r\n\r\n\t\n\(state(2))\r\n".utf8))
        var s = StateLine()
        s.now = "1"
        #expect(run.lines == [now(1, "1"), s.line(2)])
    }

    /// A last line without `\n` is still processed; an unparsable one gets -32700; exit 0.
    @Test func lastLineWithoutNewline() throws {
        let good = try Plugin.run([], input: Array(advance(1, "4").utf8))
        #expect(good.status == 0)
        #expect(good.lines == [now(1, "4")])
        let cut = try Plugin.run([], input: Array((advance(1, "4") + "\n" + #"{"jsonrpc":"2.0","id":2,"#).utf8))
        #expect(cut.status == 0)
        #expect(
            cut.lines == [
                now(1, "4"), failure("null", -32700, "Parse error: unexpected end of input in object at byte 24"),
            ])
    }

    /// A misspelled method is still `-32601`; the message says which method was probably meant
    /// (the `--os ios` ones only under `--os ios`), and a far name gets no guess.
    @Test func misspelledMethodGetsASuggestion() throws {
        let lines = try Plugin.lines(
            ["--os", "ios"],
            [
                req(1, "startKeepAlive"), req(2, "os/explian"), req(3, "nope"), state(4),
            ])
        #expect(
            lines.prefix(3) == [
                failure(1, -32601, "Method not found: startKeepAlive (did you mean startKeepalive?)"),
                failure(2, -32601, "Method not found: os/explian (did you mean os/explain?)"),
                failure(3, -32601, "Method not found: nope"),
            ])
        #expect(try Plugin.lines([], [req(2, "os/explian")]) == [failure(2, -32601, "Method not found: os/explian")])
    }
}
