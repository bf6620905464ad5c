import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// Runs corpus cases against one plugin process.
struct CorpusRunner {
    let plugin: StreamingPlugin
    let framing: Framing
    var sequence = 0

    init(plugin: StreamingPlugin, framing: Framing) {
        self.plugin = plugin
        self.framing = framing
    }

    func framed(_ json: String) -> [UInt8] {
        FrameEncoder.frame(Array(json.utf8), framing: framing)
    }

    /// Sends `plugin/reset` and `plugin/state`; returns the state's result text, nil
    /// when either went unanswered (or anything else was written in between).
    mutating func resetAndState(before: inout [[UInt8]]) -> String? {
        sequence += 1
        let reset = "\"~reset-\(sequence)\""
        let state = "\"~state-\(sequence)\""
        plugin.write(
            framed(#"{"jsonrpc":"2.0","id":\#(reset),"method":"plugin/reset"}"#)
                + framed(#"{"jsonrpc":"2.0","id":\#(state),"method":"plugin/state"}"#))
        guard let (caseFrames, _) = plugin.frames(through: reset, timeout: 60) else { return nil }
        before = caseFrames
        guard let (between, reply) = plugin.frames(through: state, timeout: 60), between.isEmpty,
            let value = try? JSONParser.parse(reply), let result = value["result"]
        else { return nil }
        return result.description
    }

    mutating func resetAndState() -> String? {
        var ignored: [[UInt8]] = []
        return resetAndState(before: &ignored)
    }

    /// Runs one case; nil when it passed, else what went wrong.
    mutating func run(_ c: CorpusCase, fresh: String) -> String? {
        guard let bytes = c.wire[framing], let expected = c.expected[framing] else { return nil }
        if c.split {
            plugin.writeSplit(bytes, pieces: min(5, bytes.count))
        } else {
            plugin.write(bytes)
        }
        var replies: [[UInt8]] = []
        guard let state = resetAndState(before: &replies) else {
            return
                "\(c.name): the plugin stopped serving (no answer to the reset and state after it); stderr: "
                + "\(plugin.stderr.suffix(300))"
        }
        if state != fresh { return "\(c.name): the state after a reset is not the fresh one: \(state)" }
        let parsed = replies.map {
            (try? JSONParser.parse($0)) ?? .string("<not JSON: \(String(decoding: $0.prefix(100), as: UTF8.self))>")
        }
        let shown = parsed.map { String($0.description.prefix(300)) }
        guard parsed.count == expected.count else {
            return "\(c.name): expected \(expected), got \(parsed.count) replies: \(shown)"
        }
        for (reply, frame) in zip(expected, parsed) where !reply.matches(frame) {
            return "\(c.name): expected \(reply), got \(shown)"
        }
        return nil
    }

    /// Splits a whole stdout into parsed frames (either framing).
    static func frames(of stdout: [UInt8]) -> [JSONValue] {
        var decoder = FrameDecoder(mode: .auto, maxFrameBytes: 64 << 20)
        decoder.append(stdout)
        var out: [JSONValue] = []
        while let f = try? decoder.nextFrame() { out.append((try? JSONParser.parse(f)) ?? .string("<not JSON>")) }
        if let f = try? decoder.finish() { out.append((try? JSONParser.parse(f)) ?? .string("<not JSON>")) }
        return out
    }
}

/// An input after which the plugin's stream ends.
struct StreamEnd: Sendable, CustomStringConvertible {
    let name: String
    let input: [UInt8]
    let replies: [Reply]
    /// Text stderr must contain, when the input was cut off mid-frame.
    var stderr: String?
    var arguments: [String] = []

    var description: String { name }

    static let pending = HandWrittenCorpus.pending
    static let lspPending = "Content-Length: \(pending.utf8.count)\r\n\r\n" + pending
    static let midFrame = "input ended mid-frame"
    /// A line that is not an LSP header, answered when it ends, not at end of input (issue 26).
    static let notAHeader = "bad LSP header: not a header line"

    static let cases: [StreamEnd] = [
        StreamEnd(
            name: "lsp body shorter than its Content-Length",
            input: Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8),
            replies: [.parseError()], stderr: midFrame),
        StreamEnd(
            name: "lsp header block cut off", input: Array("Content-Length: 5\r\n".utf8), replies: [.parseError()],
            stderr: midFrame),
        StreamEnd(
            name: "lsp header line cut off", input: Array("Content-Len".utf8), replies: [.parseError()],
            stderr: midFrame),
        StreamEnd(
            name: "lsp good frame, then a cut-off one", input: Array((lspPending + "Content-Length: 60\r\n\r\n{").utf8),
            replies: [.result("7", "[]"), .parseError()], stderr: midFrame),
        StreamEnd(
            name: "lsp body longer than its Content-Length", input: Array(("Content-Length: 5\r\n\r\n" + pending).utf8),
            replies: [.parseError(), .parseError()], stderr: midFrame),
        StreamEnd(
            name: "lsp oversized body cut off",
            input: Array("Content-Length: 2000000\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: 1_500_000),
            replies: [.invalidRequest()]),
        StreamEnd(
            name: "ndjson last line unterminated and cut off",
            input: Array((pending + "\n{\"jsonrpc\":\"2.0\",\"id\":2,").utf8),
            replies: [.result("7", "[]"), .parseError()]),
        StreamEnd(
            name: "ndjson last line unterminated but whole", input: Array(pending.utf8), replies: [.result("7", "[]")]),
        StreamEnd(
            name: "ndjson oversized last line cut off",
            input: [UInt8](repeating: UInt8(ascii: "["), count: 1) + [UInt8](repeating: 0x20, count: 2_000_000),
            replies: [.invalidRequest()]),
        StreamEnd(
            name: "a byte order mark, then ndjson", input: [0xEF, 0xBB, 0xBF] + Array((pending + "\n").utf8),
            replies: [.result("7", "[]")]),
        StreamEnd(
            name: "a byte order mark, then lsp", input: [0xEF, 0xBB, 0xBF] + Array(lspPending.utf8),
            replies: [.result("7", "[]")]),
        StreamEnd(name: "half a byte order mark", input: [0xEF, 0xBB], replies: [.parseError()], stderr: midFrame),
        StreamEnd(
            name: "two byte order marks", input: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array((pending + "\n").utf8),
            replies: [.parseError()], stderr: notAHeader),
        StreamEnd(name: "no input at all", input: [], replies: []),
        StreamEnd(name: "whitespace only", input: Array(" \r\n\t\n\n".utf8), replies: []),
        StreamEnd(
            name: "garbage, auto-detected as lsp, no blank line", input: Array("hello world\n".utf8),
            replies: [.parseError()], stderr: notAHeader),
        StreamEnd(
            name: "garbage, auto-detected as lsp, with a blank line", input: Array("hello world\r\n\r\n".utf8),
            replies: [.parseError()]),
        StreamEnd(name: "NUL bytes only", input: [0, 0, 0, 0], replies: [.parseError()], stderr: midFrame),
        StreamEnd(
            name: "shutdown, then more frames",
            input: Array((#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"# + "\n" + pending + "\n").utf8),
            replies: [.result("1", "null")]),
        StreamEnd(
            name: "a waitForCancel pending at the end of input",
            input: Array((#"{"jsonrpc":"2.0","id":1,"method":"waitForCancel"}"# + "\n").utf8),
            replies: []),
        StreamEnd(
            name: "a batch held by a waitForCancel at the end of input",
            input: Array((#"[{"jsonrpc":"2.0","id":1,"method":"waitForCancel"},"# + pending + "]\n").utf8),
            replies: []),
        StreamEnd(
            name: "--framing lsp given ndjson", input: Array((pending + "\n").utf8), replies: [.parseError()],
            stderr: notAHeader,
            arguments: ["--framing", "lsp"]),
        StreamEnd(
            name: "--framing ndjson given lsp", input: Array(lspPending.utf8),
            replies: [.parseError(), .result("7", "[]")],
            arguments: ["--framing", "ndjson"]),
    ]
}
