import HostProtocol
import HostTestSupport
import Testing

@Suite("FrameEncoder")
struct FrameEncoderTests {
    @Test("ndjson: the body then one LF")
    func ndjsonOutput() {
        #expect(FrameEncoder.frame(bytes("{\"a\":1}"), framing: .ndjson) == bytes("{\"a\":1}\n"))
        #expect(FrameEncoder.frame([UInt8](), framing: .ndjson) == [0x0A])
    }

    @Test("lsp: Content-Length (in bytes) only, CRLF CRLF, then the body")
    func lspOutput() {
        #expect(FrameEncoder.frame(bytes("{\"a\":1}"), framing: .lsp) == bytes("Content-Length: 7\r\n\r\n{\"a\":1}"))
        #expect(FrameEncoder.frame(bytes("\"é\""), framing: .lsp) == bytes("Content-Length: 4\r\n\r\n\"é\""))
        #expect(FrameEncoder.frame([UInt8](), framing: .lsp) == bytes("Content-Length: 0\r\n\r\n"))
    }

    @Test("append adds to what is already there", arguments: Framing.allCases)
    func appendAccumulates(framing: Framing) {
        var out = bytes("prefix")
        FrameEncoder.append(bytes("[1]"), framing: framing, to: &out)
        FrameEncoder.append(bytes("[2]"), framing: framing, to: &out)
        #expect(
            out == bytes("prefix") + FrameEncoder.frame(bytes("[1]"), framing: framing)
                + FrameEncoder.frame(bytes("[2]"), framing: framing))
    }

    @Test("append accepts any byte collection (slices included)")
    func appendSlice() {
        let source = bytes("xx{}yy")
        let slice = source[2..<4]
        #expect(FrameEncoder.frame(slice, framing: .lsp) == bytes("Content-Length: 2\r\n\r\n{}"))
        #expect(FrameEncoder.frame(slice, framing: .ndjson) == bytes("{}\n"))
    }

    static let bodies: [JSONValue] = [
        ["jsonrpc": "2.0", "id": 1, "method": "startKeepalive", "params": ["label": "sync"]],
        ["jsonrpc": "2.0", "id": "a\nb", "result": .null],
        [
            "jsonrpc": "2.0", "method": "os/taskLaunched",
            "params": ["identifier": "com.example.app.bg-refresh", "at": 900],
        ],
        [["jsonrpc": "2.0", "id": 1, "method": "x"], ["jsonrpc": "2.0", "method": "y"]],
        ["s": "Content-Length: 5\r\n\r\n", "emoji": "😀", "ctl": "\u{0}\u{1F}"],
        [],
        [:],
    ]

    @Test("encode then decode gives the bodies back, for every framing and chunking", arguments: Framing.allCases)
    func roundTrip(framing: Framing) throws {
        var stream: [UInt8] = []
        for body in FrameEncoderTests.bodies { FrameEncoder.append(body.compactBytes, framing: framing, to: &stream) }
        let expected = FrameEncoderTests.bodies.map { FrameOutcome.frame($0.compactBytes) }
        let mode: FramingMode = framing == .ndjson ? .ndjson : .lsp
        expectChunkingInvariant(stream, framed(mode), expected: expected, compare: { $0 })
        expectChunkingInvariant(stream, framed(.auto), expected: expected, compare: { $0 })
        // And the frames parse back to the same values.
        for (frame, body) in zip(decode(framed(.auto), [stream]), FrameEncoderTests.bodies) {
            guard case .frame(let b) = frame else {
                Issue.record("expected a frame, got \(frame)")
                continue
            }
            #expect(try JSONParser.parse(b) == body)
        }
    }

    @Test("auto-detection picks the framing that encoded the stream", arguments: Framing.allCases)
    func autoDetectsEncoderOutput(framing: Framing) {
        var d = FrameDecoder(mode: .auto, maxFrameBytes: 1 << 20)
        d.append(FrameEncoder.frame(bytes("{}"), framing: framing))
        #expect(d.detected == framing)
    }

    @Test("compact JSON never contains a raw LF, so ndjson framing is safe for any value")
    func compactHasNoNewline() {
        for body in FrameEncoderTests.bodies {
            #expect(!body.compactBytes.contains(0x0A), "\(body)")
            #expect(!body.compactBytes.contains(0x0D), "\(body)")
        }
    }
}
