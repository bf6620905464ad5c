import HostProtocol
import HostTestSupport
import Testing

private let malformed = FrameOutcome.error(.malformedHeader(""))
private let truncated = FrameOutcome.error(.truncated(""))
private let nextFrameText = lspFrame("{\"next\":1}")

@Suite("LSP frame decoder")
struct LSPDecoderTests {
    static let wellFormed: [FramingCase] = [
        .init("one CRLF frame", lspFrame("{\"a\":1}"), ["{\"a\":1}"]),
        .init("two frames back to back", lspFrame("{}") + lspFrame("[1,2]"), ["{}", "[1,2]"]),
        .init("lower-case header name", "content-length: 2\r\n\r\n{}", ["{}"]),
        .init("upper-case header name", "CONTENT-LENGTH: 2\r\n\r\n{}", ["{}"]),
        .init("mixed-case header name", "CoNtEnT-LeNgTh: 2\r\n\r\n{}", ["{}"]),
        .init(
            "Content-Type before Content-Length",
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}", ["{}"]),
        .init(
            "Content-Type after Content-Length", "Content-Length: 2\r\ncontent-type: application/json\r\n\r\n{}", ["{}"]
        ),
        .init("unknown headers ignored", "X-Foo: bar\r\nContent-Length: 2\r\nX-Empty:\r\n\r\n{}", ["{}"]),
        .init("LF-only header lines", "Content-Length: 2\n\n{}Content-Length: 3\nX: y\n\n[1]", ["{}", "[1]"]),
        .init("CRLF header line, LF blank line", "Content-Length: 2\r\n\n{}", ["{}"]),
        .init("no space after the colon", "Content-Length:2\r\n\r\n{}", ["{}"]),
        .init("spaces and tabs around the value", "Content-Length: \t 2 \t\r\n\r\n{}", ["{}"]),
        .init("space before the colon", "Content-Length : 2\r\n\r\n{}", ["{}"]),
        .init("leading zeros in the length", "Content-Length: 0002\r\n\r\n{}", ["{}"]),
        .init(
            "body taken verbatim by length", lspFrame("{\"a\":\"\\r\\n\"}\r\n\r\nContent-Length: 9"),
            ["{\"a\":\"\\r\\n\"}\r\n\r\nContent-Length: 9"]),
        .init("Content-Length 0 gives an empty frame", "Content-Length: 0\r\n\r\n" + lspFrame("{}"), ["", "{}"]),
        .init(
            "stray blank lines between frames", "\r\n\n" + lspFrame("{}") + "\r\n\r\n\n" + lspFrame("[]") + "\r\n",
            ["{}", "[]"]),
        .init("only blank lines", "\r\n\n\r\n", [] as [String]),
        .init("empty input", "", [] as [String]),
        .init("non-ASCII body, length in bytes", lspFrame("{\"é\":\"😀\"}"), ["{\"é\":\"😀\"}"]),
        .init(
            "invalid UTF-8 body passes through", Array("Content-Length: 2\r\n\r\n".utf8) + [0xC0, 0xAF],
            [.frame([0xC0, 0xAF])]),
    ]

    static let malformedHeaders: [FramingCase] = [
        .init(
            "missing Content-Length", "Content-Type: application/json\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "negative Content-Length", "Content-Length: -1\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "non-numeric Content-Length", "Content-Length: abc\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "trailing garbage in Content-Length", "Content-Length: 2x\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "hex Content-Length", "Content-Length: 0x10\r\n\r\n" + nextFrameText, [malformed, .frame("{\"next\":1}")]),
        .init(
            "fractional Content-Length", "Content-Length: 1.5\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init("plus sign", "Content-Length: +2\r\n\r\n" + nextFrameText, [malformed, .frame("{\"next\":1}")]),
        .init("empty Content-Length", "Content-Length:\r\n\r\n" + nextFrameText, [malformed, .frame("{\"next\":1}")]),
        .init("two numbers", "Content-Length: 1 2\r\n\r\n" + nextFrameText, [malformed, .frame("{\"next\":1}")]),
        .init(
            "19 digits", "Content-Length: 1234567890123456789\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "far more than 18 digits", "Content-Length: \(String(repeating: "9", count: 40))\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "repeated Content-Length", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "repeated in another case", "content-length: 2\r\nCONTENT-LENGTH: 3\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "a header line without a colon", "Content-Length: 2\r\nbogus\r\n\r\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "LF-only malformed block", "Content-Length: x\nX: y\n\n" + nextFrameText,
            [malformed, .frame("{\"next\":1}")]),
        .init(
            "two malformed blocks then a frame", "Content-Length: -5\r\n\r\nContent-Type: a\r\n\r\n" + nextFrameText,
            [malformed, malformed, .frame("{\"next\":1}")]),
    ]

    @Test("well-formed streams decode the same for every chunking", arguments: wellFormed)
    func decodes(_ c: FramingCase) {
        expectChunkingInvariant(c.input, lsp(), expected: c.expected)
    }

    @Test("FrameDecoder in lsp mode decodes the same", arguments: wellFormed)
    func frameDecoderLSPMode(_ c: FramingCase) {
        expectChunkingInvariant(c.input, framed(.lsp), expected: c.expected)
    }

    @Test(
        "a header block without a usable Content-Length is malformedHeader, skipped to its blank line",
        arguments: malformedHeaders)
    func malformedHeader(_ c: FramingCase) {
        expectChunkingInvariant(c.input, lsp(), expected: c.expected)
    }

    @Test("malformed header errors answer -32700")
    func malformedIsParseError() {
        let out = expectChunkingInvariant(bytes("Content-Length: -1\r\n\r\n"), lsp(), expected: [malformed])
        guard case .error(let e)? = out.first else {
            Issue.record("expected an error, got \(out)")
            return
        }
        #expect(e.rpcError.code == .parseError)
    }

    @Test("an oversized declared length is reported with the length and its body skipped")
    func oversizedBodySkipped() {
        let body = "{\"pad\":\"" + String(repeating: "z", count: 40) + "\"}"
        expectChunkingInvariant(
            bytes(lspFrame(body) + nextFrameText), lsp(16),
            expected: [.error(.oversized(length: body.utf8.count, limit: 16)), .frame("{\"next\":1}")])
    }

    @Test("a body of exactly maxFrameBytes is accepted")
    func limitIsInclusive() {
        expectChunkingInvariant(
            bytes(lspFrame("[12345]") + lspFrame("[123456]")), lsp(7),
            expected: [.frame("[12345]"), .error(.oversized(length: 8, limit: 7))])
    }

    @Test("an 18-digit length is a number (oversized), not a malformed header")
    func eighteenDigits() {
        expectChunkingInvariant(
            bytes("Content-Length: 999999999999999999\r\n\r\n{}" + nextFrameText), lsp(1 << 20),
            expected: [.error(.oversized(length: 999_999_999_999_999_999, limit: 1 << 20))])
    }

    @Test("a body cut off by the end of input: finish() throws truncated")
    func truncatedBody() {
        expectChunkingInvariant(
            bytes(lspFrame("{}") + "Content-Length: 10\r\n\r\n{\"a\""), lsp(), expected: [.frame("{}"), truncated])
    }

    @Test("a header block cut off by the end of input: finish() throws truncated")
    func truncatedHeader() {
        expectChunkingInvariant(bytes("Content-Length: 2\r\n"), lsp(), expected: [truncated])
        expectChunkingInvariant(bytes(lspFrame("[]") + "Content-Len"), lsp(), expected: [.frame("[]"), truncated])
    }

    @Test("the end of input inside a skipped oversized body adds no error")
    func endInsideSkippedBody() {
        expectChunkingInvariant(
            bytes("Content-Length: 100\r\n\r\n{\"a\":"), lsp(10),
            expected: [.error(.oversized(length: 100, limit: 10))])
    }

    @Test("bufferedByteCount stays bounded while an oversized body streams in")
    func boundedOversizedBody() {
        let limit = 64 * 1024
        let chunk = [UInt8](repeating: UInt8(ascii: "y"), count: 4096)
        let total = 8 << 20
        var d = LSPFrameDecoder(maxFrameBytes: limit)
        var out: [FrameOutcome] = []
        d.append(bytes("Content-Length: \(total)\r\n\r\n"))
        drain(&d, into: &out, budget: 100)
        var peak = 0
        for _ in 0..<total / chunk.count {
            d.append(chunk)
            drain(&d, into: &out, budget: 100)
            peak = max(peak, d.bufferedByteCount)
        }
        d.append(bytes(nextFrameText))
        drain(&d, into: &out, budget: 100)
        #expect(peak == 0, "the skipped body must not be buffered")
        #expect(out == [.error(.oversized(length: total, limit: limit)), .frame("{\"next\":1}")])
    }

    @Test("bufferedByteCount stays bounded while a runaway header block streams in")
    func boundedRunawayHeader() {
        var d = LSPFrameDecoder(maxFrameBytes: 1 << 20)
        var out: [FrameOutcome] = []
        let line = bytes("X-Pad: " + String(repeating: "p", count: 93) + "\r\n")  // 102 bytes
        var peak = 0
        for _ in 0..<10_000 {  // about 1 MB of header lines, no blank line
            d.append(line)
            drain(&d, into: &out, budget: 100)
            peak = max(peak, d.bufferedByteCount)
        }
        #expect(peak <= LSPFrameDecoder.maxHeaderBytes + line.count)
        d.append(bytes("\r\n" + nextFrameText))
        drain(&d, into: &out, budget: 100)
        #expect(out.map(\.kindOnly) == [malformed, .frame("{\"next\":1}")])
    }

    @Test("output frames from the encoder carry Content-Length only")
    func encoderHeader() {
        let framed = FrameEncoder.frame(bytes("{}"), framing: .lsp)
        #expect(framed == bytes("Content-Length: 2\r\n\r\n{}"))
    }
}
