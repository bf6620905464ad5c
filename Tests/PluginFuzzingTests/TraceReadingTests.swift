import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// Traces read strictly (line ends, byte order mark, version, every step line), actions
/// read back with a reason, a nested `together` played without a crash, and the words a
/// finding is named and counted with.
@Suite("Trace reading and finding names")
struct TraceReadingTests {
    static let header =
        #"{"kind":"header","version":1,"level":"plugin","profile":"seed","seed":7,"finding":"f","#
        + #""pluginArguments":[]}"#

    static func read(_ text: String) throws(TraceFile.ReadError) -> TraceFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("t-\(UUID().uuidString).jsonl")
        try? text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try TraceFile.read(path: url.path)
    }

    static func error(_ text: String) -> String {
        do {
            _ = try read(text).pluginSteps()
            return ""
        } catch {
            return error.description
        }
    }

    /// CRLF, a byte order mark and blank lines: the same steps, numbered by their line in the file.
    @Test func crlfAndBlankLinesKeepTheirLineNumbers() throws {
        let step = #"{"send":{"jsonrpc":"2.0","id":1,"method":"plugin/state"},"actual":[]}"#
        let trace = try Self.read("\u{FEFF}" + Self.header + "\r\n\r\n" + step + "\r\n" + step + "\r\n")
        #expect(trace.lines.count == 2)
        #expect(trace.lineNumber(0) == 3 && trace.lineNumber(1) == 4)
        #expect(try trace.pluginSteps().map(\.step.method) == ["plugin/state", "plugin/state"])
        #expect(Self.error(Self.header + "\r\n\r\n" + #"{"send":1}"# + "\r\n").contains(":3: \"send\" is not"))
    }

    @Test func theVersionIsChecked() {
        for (version, message) in [
            ("999", "trace version 999 is not one this plugin-host reads (version 1)"),
            (#""banana""#, #"trace version "banana" is not"#), ("1.5", "trace version 1.5 is not"),
        ] {
            let text = Self.header.replacingOccurrences(of: #""version":1"#, with: #""version":\#(version)"#)
            #expect(Self.error(text).contains(":1: " + message), "\(version): \(Self.error(text))")
        }
        let none = Self.header.replacingOccurrences(of: #""version":1,"#, with: "")
        #expect(Self.error(none).contains(":1: the header has no \"version\""))
        let arguments = Self.header.replacingOccurrences(of: #""pluginArguments":[]"#, with: #""pluginArguments":5"#)
        #expect(Self.error(arguments).contains(":1: \"pluginArguments\" must be a list of strings"))
    }

    /// Each step line says what it lacks, with its line.
    @Test func stepLinesAreChecked() {
        let cases = [
            (#"{"index":0}"#, ":2: a step line has no \"send\""),
            (#"{"send":{"jsonrpc":"2.0","id":1,"method":"m"},"actual":3}"#, ":2: \"actual\" must be a list"),
            (#"{"send":[{"jsonrpc":"2.0","id":1,"method":"m"}],"schedule":["x"]}"#, ":2: \"schedule\" must be"),
            (#""text""#, ":2: a step line must be a JSON object"),
            (#"{"send":{"jsonrpc":"2.0","id":"~barrier-1","method":"m"}}"#, ":2: request id \"~barrier-1\": ids"),
        ]
        for (line, message) in cases {
            #expect(Self.error(Self.header + "\n" + line).contains(message), "\(Self.error(Self.header + "\n" + line))")
        }
    }

    /// A `together` inside a `together` is refused with its reason (it once crashed replay).
    @Test func aNestedTogetherIsRefused() {
        let inner: JSONValue = SystemAction.together(.start, os: .expire, invoke: "waitForCancel").json
        let nested: JSONValue = ["action": "together", "during": inner, "os": ["action": "expire"], "invoke": "x"]
        #expect(throws: SystemAction.ReadError.self) { try SystemAction.read(nested) }
        #expect(SystemAction(json: nested) == nil)
        let os: JSONValue = ["action": "together", "during": ["action": "start"], "os": inner, "invoke": "x"]
        #expect(SystemAction(json: os) == nil)
        #expect(SystemAction(json: inner) == .together(.start, os: .expire, invoke: "waitForCancel"))
        let far: JSONValue = ["action": "advance", "seconds": 1e12]
        #expect(SystemAction(json: far) == nil)
        #expect(SystemAction(json: ["action": "advance", "seconds": -5]) == nil)
    }

    /// Built in code (no trace refuses it), a nested `together` is played one after the
    /// other instead of crashing the simulation.
    @Test func aNestedTogetherPlaysWithoutACrash() async throws {
        let outcome = try await onThread {
            let scenario = SystemScenario(
                runs: [
                    .init(initSeconds: 0, initFails: false, runSeconds: 5, outcome: .success, onCancel: .throwError)
                ],
                safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 100, earliestMinutes: 0)
            let nested = SystemAction.together(
                .together(.start, os: .launch(.refresh), invoke: "waitForCancel"), os: .expire, invoke: "waitForCancel")
            let arguments = ["--profile", "seed", "--clock", "virtual", "--dispatch", "tauri"]
            return SystemCase(scenario: scenario, actions: [nested, .advance(VirtualTime(seconds: 1)!)]).run(
                plugin: .inProcess(arguments: arguments, stderrPrefix: ""), behaviour: .seed, dispatch: .tauri)
        }
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.timeline.count == 2)
    }

    /// Two frames of one kind that differ are named as such, not "expected result, got result".
    @Test func signaturesSayWhatDiffers() {
        let result: JSONValue = ["id": 1, "jsonrpc": "2.0", "result": ["now": 1]]
        let other: JSONValue = ["id": 1, "jsonrpc": "2.0", "result": ["now": 2]]
        let error: JSONValue = ["id": 1, "jsonrpc": "2.0", "error": ["code": -32602, "message": "m"]]
        let differs = FrameComparison.firstMismatch(expected: [result], actual: [other])
        #expect(differs?.signature == "result differs from the model's")
        #expect(
            FrameComparison.firstMismatch(expected: [result], actual: [error])?.signature
                == "expected result, got error -32602")
        #expect(
            FrameComparison.firstMismatch(expected: [result], actual: [])?.signature == "expected result, got nothing")
        #expect(FuzzProgress.count(1, "finding") == "1 finding" && FuzzProgress.count(3, "finding") == "3 findings")
    }

    /// Answers are matched to what was sent: one too many, or an id never sent, breaks the
    /// transport; an id sent twice may be answered twice.
    @Test func answersAreMatchedToRequests() {
        let ask: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "plugin/state"]
        let answer: JSONValue = ["id": 1, "jsonrpc": "2.0", "result": .null]
        let sent = PluginCase.sentIDs([ask])
        #expect(PluginCase.answerProblem([answer], sent: sent) == nil)
        #expect(PluginCase.answerProblem([answer, answer], sent: sent)?.code == .answeredTwice)
        #expect(PluginCase.answerProblem([["id": 9, "result": 1]], sent: sent)?.code == .unknownID)
        #expect(PluginCase.answerProblem([answer, answer], sent: PluginCase.sentIDs([ask, ask])) == nil)
        #expect(PluginCase.answerProblem([.array([answer]), answer], sent: sent)?.code == .answeredTwice)
    }
}
