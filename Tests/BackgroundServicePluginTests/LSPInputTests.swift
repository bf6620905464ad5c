import HostTestSupport
import Testing

/// Issue 2's bad inputs under LSP framing (contract 1): bad headers and truncated
/// frames get -32700 with id null, and the plugin keeps serving.
@Suite("bad inputs, lsp")
struct LSPInputTests {
    /// One LSP frame around `body`.
    static func frame(_ body: String, header: String = "Content-Length") -> String {
        "\(header): \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// Splits LSP output into bodies, checking each header is exactly `Content-Length: N`.
    static func bodies(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        var rest = bytes[...]
        var out: [String] = []
        let separator = Array("\r\n\r\n".utf8)
        while !rest.isEmpty {
            guard let end = rest.indices.first(where: { rest[$0...].starts(with: separator) }) else {
                Issue.record(
                    "unterminated header in \(String(decoding: rest, as: UTF8.self))", sourceLocation: sourceLocation)
                return out
            }
            let header = String(decoding: rest[..<end], as: UTF8.self)
            guard header.hasPrefix("Content-Length: "), let n = Int(header.dropFirst(16)) else {
                Issue.record("bad output header \(header)", sourceLocation: sourceLocation)
                return out
            }
            let start = end + 4
            guard rest.endIndex - start >= n else {
                Issue.record("short body", sourceLocation: sourceLocation)
                return out
            }
            out.append(String(decoding: rest[start..<(start + n)], as: UTF8.self))
            rest = rest[(start + n)...]
        }
        return out
    }

    static func run(_ input: String, _ arguments: [String] = []) throws -> (bodies: [String], run: PluginRun) {
        let run = try Plugin.run(arguments, input: Array(input.utf8))
        return (bodies(run.stdout), run)
    }

    /// auto framing detects LSP; replies are LSP frames; header names are
    /// case-insensitive and other headers are ignored.
    @Test func lspRoundTrip() throws {
        let input =
            Self.frame(advance(1, "2")) + "content-type: application/json\r\n"
            + Self.frame(state(2), header: "CONTENT-LENGTH")
        let (bodies, run) = try Self.run(input)
        var s = StateLine()
        s.now = "2"
        #expect(run.status == 0)
        #expect(bodies == [now(1, "2"), s.line(2)])
    }

    /// A header block without a usable Content-Length is -32700, skipped up to its blank line.
    @Test(arguments: [
        ("Content-Type: application/json\r\n\r\n", "bad LSP header: no Content-Length header"),
        ("Content-Length: -5\r\n\r\n", #"bad LSP header: Content-Length is not a non-negative integer: \"-5\""#),
        ("Content-Length: ten\r\n\r\n", #"bad LSP header: Content-Length is not a non-negative integer: \"ten\""#),
    ])
    func badHeader(header: String, message: String) throws {
        let (bodies, run) = try Self.run(Self.frame(advance(1, "1")) + header + Self.frame(state(2)))
        var s = StateLine()
        s.now = "1"
        #expect(run.status == 0)
        #expect(bodies == [now(1, "1"), failure("null", -32700, "Parse error: " + message), s.line(2)])
    }

    /// A frame cut off by the end of input: -32700 after everything before it, exit 0.
    @Test func truncatedFrameAtEOF() throws {
        let (bodies, run) = try Self.run(Self.frame(advance(1, "1")) + "Content-Length: 100\r\n\r\n{\"json")
        #expect(!run.timedOut)
        #expect(run.status == 0)
        #expect(
            bodies == [
                now(1, "1"),
                failure("null", -32700, "Parse error: truncated frame at end of input: body has 6 of 100 bytes"),
            ])
    }

    /// An LSP body longer than --max-frame-bytes: -32600, skipped, serving continues.
    @Test func oversizedBody() throws {
        let long =
            #"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":""# + String(repeating: "y", count: 100) + #""}}"#
        let (bodies, run) = try Self.run(Self.frame(long) + Self.frame(state(2)), ["--max-frame-bytes", "80"])
        #expect(run.status == 0)
        #expect(
            bodies == [
                failure(
                    "null", -32600, "Invalid Request: frame of \(long.utf8.count) bytes exceeds the limit of 80 bytes"),
                StateLine().line(2),
            ])
    }

    /// Not JSON inside a well-framed body: -32700, and the next frame is served.
    @Test func notJSONBody() throws {
        let (bodies, _) = try Self.run(Self.frame("{oops") + Self.frame(state(2)))
        #expect(
            bodies == [failure("null", -32700, "Parse error: expected a string key at byte 1"), StateLine().line(2)])
    }

    /// `--framing ndjson`: a first line that is not JSON is -32700 (not taken as LSP).
    @Test func forcedNDJSON() throws {
        let run = try Plugin.run(["--framing", "ndjson"], ["hello", state(1)])
        #expect(
            run.lines == [failure("null", -32700, "Parse error: unexpected character at byte 0"), StateLine().line(1)])
    }

    /// `--framing lsp`: an ndjson line is a bad header, not a request.
    @Test func forcedLSP() throws {
        let (bodies, run) = try Self.run(advance(1, "1") + "\n\n" + Self.frame(advance(2, "1")), ["--framing", "lsp"])
        #expect(run.status == 0)
        #expect(bodies.count == 2)
        #expect(bodies.first?.hasPrefix(#"{"error":{"code":-32700,"#) == true)
        #expect(bodies.last == now(2, "1"))
    }
}
