import HostProtocol
import HostTestSupport
import Testing

/// Chunking independence: the contract makes the plugin's output a byte-for-byte
/// function of its input, so how stdin happens to be split into reads must not
/// change a frame or an error (an error's text is written in the reply).
@Suite("Framing is independent of how input is chunked")
struct FramingSplitTests {
    @Test("Chunking.all covers whole, byte by byte and every split point")
    func chunkingsCoverInput() {
        let input = bytes("{\"a\":1}\n")
        let all = Chunking.all(input)
        #expect(all.count == input.count + 3)
        for c in all { #expect(c.chunks.flatMap { $0 } == input, "\(c)") }
        #expect(all[1].chunks.count == input.count)
        #expect(Set(all.dropFirst(2).map { $0.chunks[0].count }) == Set(0...input.count))
    }

    static let mixedNDJSON: [FramingCase] = [
        .init(
            "request, blank lines, batch, unterminated tail",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"startKeepalive\",\"params\":{}}\n\n  \r\n[{\"a\":1},"
                + "{\"b\":2}]\r\n{\"tail\":true}",
            [
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"startKeepalive\",\"params\":{}}", "[{\"a\":1},{\"b\":2}]",
                "{\"tail\":true}",
            ]),
        .init("empty containers and blank CRLF lines", "[]\n{}\r\n\r\n\r\n[1]\n\t\n", ["[]", "{}", "[1]"]),
        .init(
            "escaped line breaks inside strings", "{\"s\":\"line\\nbreak \\r\\n escaped\"}\n{\"é\":\"ü\"}\r\n",
            ["{\"s\":\"line\\nbreak \\r\\n escaped\"}", "{\"é\":\"ü\"}"]),
    ]

    @Test("ndjson: the plain, fixed and auto decoders agree", arguments: mixedNDJSON)
    func decodersAgreeNDJSON(_ c: FramingCase) {
        let input = c.input
        let plain = expectChunkingInvariant(input, ndjson(), expected: c.expected)
        let fixed = expectChunkingInvariant(input, framed(.ndjson))
        let auto = expectChunkingInvariant(input, framed(.auto))
        #expect(plain == fixed)
        #expect(plain == auto)
        #expect(!plain.isEmpty)
    }

    static let mixedLSP: [FramingCase] = [
        .init(
            "frame, stray blank line, malformed block, frame with Content-Type",
            lspFrame("{\"id\":1}") + "\r\n" + "Content-Length: x\r\n\r\n"
                + lspFrame("[]", headers: "Content-Type: a\r\n"),
            [.frame("{\"id\":1}"), .error(.malformedHeader("")), .frame("[]")]),
        .init(
            "LF headers, an oversized body, a frame",
            "content-length: 3\n\n[1]" + lspFrame("{\"long\":\"" + String(repeating: "q", count: 40) + "\"}")
                + lspFrame("{}"),
            [.frame("[1]"), .error(.oversized(length: 51, limit: 32)), .frame("{}")]),
        .init(
            "repeated length, a frame, a truncated body",
            "Content-Length: 2\r\nContent-Length: 2\r\n\r\n" + lspFrame("{}") + "Content-Length: 5\r\n\r\n{}",
            [.error(.malformedHeader("")), .frame("{}"), .error(.truncated(""))]),
    ]

    @Test("lsp: the plain, fixed and auto decoders agree", arguments: mixedLSP)
    func decodersAgreeLSP(_ c: FramingCase) {
        let input = c.input
        let plain = expectChunkingInvariant(input, lsp(32), expected: c.expected)
        let fixed = expectChunkingInvariant(input, framed(.lsp, 32))
        let auto = expectChunkingInvariant(input, framed(.auto, 32))
        #expect(plain == fixed)
        #expect(plain == auto)
        #expect(!plain.isEmpty)
    }

    // MARK: - Edge cases that once gave chunk-dependent results (fixed; kept as regressions)

    @Test("ndjson: an oversized line gives the same error for every chunking")
    func oversizedErrorIsChunkIndependent() {
        expectChunkingInvariant(bytes("[" + String(repeating: "0,", count: 20) + "0]\n[]\n"), ndjson(16))
    }

    @Test("ndjson: a line of exactly maxFrameBytes ending in CRLF is accepted for every chunking")
    func exactLimitWithCRLF() {
        // `{"a":12}` is exactly 8 bytes.
        expectChunkingInvariant(
            bytes("{\"a\":12}\r\n[1]\n"), ndjson(8),
            expected: [.frame("{\"a\":12}"), .frame("[1]")])
        expectChunkingInvariant(bytes("{\"a\":12}\r"), ndjson(8), expected: [.frame("{\"a\":12}")])
    }

    @Test("ndjson: a long whitespace-only line is handled the same for every chunking")
    func longBlankLine() {
        expectChunkingInvariant(bytes(String(repeating: " ", count: 40) + "\n{}\n"), ndjson(16))
    }

    @Test("lsp: a header block longer than maxHeaderBytes is handled the same for every chunking")
    func longHeaderBlock() {
        let block = "X-Pad: " + String(repeating: "a", count: LSPFrameDecoder.maxHeaderBytes) + "\r\n"
        let input = bytes(block + lspFrame("{}") + lspFrame("[1]"))
        expectChunkingInvariant(input, lsp())
    }

    /// Found by FuzzTargets/DecoderFuzzer in CI: a line that is not a header line,
    /// longer than `maxHeaderBytes`, was "not a header line" when it arrived whole and
    /// "header block longer than …" when it arrived in pieces.
    @Test(
        "lsp: a non-header line longer than maxHeaderBytes gives the same error for every chunking",
        arguments: [0, 1, 2, 3])
    func longNonHeaderLine(extra: Int) {
        let line = "{\"jsonrpc\":" + String(repeating: "x", count: LSPFrameDecoder.maxHeaderBytes - 11 + extra) + "\n"
        let input = bytes(line + lspFrame("{}"))
        let outcomes = expectChunkingInvariant(input, lsp())
        // Ending within byte maxHeaderBytes + 1 it is a bad line, consumed alone;
        // past it the block is too long and is skipped up to the next blank line.
        let expected: [FrameOutcome] =
            extra < 2
            ? [.error(.malformedHeader("")), .frame("{}")] : [.error(.malformedHeader("")), .error(.truncated(""))]
        #expect(outcomes.map(\.kindOnly) == expected)
        let message = "\(outcomes.first.map(String.init(describing:)) ?? "")"
        #expect(message.contains(extra < 2 ? "not a header line" : "longer than"), "\(message)")
    }

    @Test("lsp: a runaway header line is skipped the same whether a read ends before or after its CR")
    func runawayHeaderLineCR() {
        let longLine = bytes("X-Pad: " + String(repeating: "a", count: LSPFrameDecoder.maxHeaderBytes + 100))
        let rest = bytes("\nContent-Length: 2\r\n\r\n{}" + lspFrame("[1]"))
        let beforeCR = decode(lsp(), [longLine, [0x0D] + rest])
        let afterCR = decode(lsp(), [longLine + [0x0D], rest])
        #expect(beforeCR.first?.kindOnly == .error(.malformedHeader("")))
        #expect(afterCR == beforeCR)
    }

    @Test("auto: only the BOM at the very start of the stream is skipped, however it arrives")
    func secondBOMNotSkipped() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let input = bom + bom + bytes("{}\n")
        // Whole, the second BOM is the first significant byte: lsp, and a line that is not a header.
        let whole = decode(framed(.auto), [input])
        #expect(whole.map(\.kindOnly) == [.error(.malformedHeader(""))])
        let split = decode(framed(.auto), [bom, bom + bytes("{}\n")])
        #expect(split == whole)
    }
}
