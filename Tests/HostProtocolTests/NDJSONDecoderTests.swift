import HostProtocol
import HostTestSupport
import Testing

@Suite("NDJSON frame decoder")
struct NDJSONDecoderTests {
    static let cases: [FramingCase] = [
        .init("one LF-terminated line", "{\"a\":1}\n", ["{\"a\":1}"]),
        .init("CRLF-terminated lines", "{\"a\":1}\r\n[2]\r\n", ["{\"a\":1}", "[2]"]),
        .init("LF and CRLF mixed", "{}\n[]\r\n{\"x\":null}\n", ["{}", "[]", "{\"x\":null}"]),
        .init("empty lines skipped", "\n\n{}\n\n\n[]\n\n", ["{}", "[]"]),
        .init("whitespace-only lines skipped", " \n\t\n \t \r\n\r\n{}\n   \r\n", ["{}"]),
        .init("unterminated last line returned by finish", "{}\n{\"b\":2}", ["{}", "{\"b\":2}"]),
        .init("unterminated last line without its trailing CR", "{\"b\":2}\r", ["{\"b\":2}"]),
        .init("whitespace-only unterminated tail ignored", "{}\n  \t ", ["{}"]),
        .init("whitespace only", " \r\n\n\t", [] as [String]),
        .init("empty input", "", [] as [String]),
        .init("leading and inner whitespace kept verbatim", "  { \"a\" : 1 }\t\n", ["  { \"a\" : 1 }\t"]),
        .init("only the CR right before LF is dropped", "{}\r\r\n", ["{}\r"]),
        .init("a CR inside a line is kept", "{}\r{}\n", ["{}\r{}"]),
        .init("content is not validated as JSON", "not json\n{\n", ["not json", "{"]),
        .init("non-ASCII passes through", "{\"é\":\"😀\"}\n", ["{\"é\":\"😀\"}"]),
        .init(
            "a hundred lines", (0..<100).map { "{\"n\":\($0)}\n" }.joined(),
            (0..<100).map { "{\"n\":\($0)}" }),
        .init(
            "invalid UTF-8 passes through untouched", [0xFF, 0xFE, 0x0A, 0xC0, 0xAF],
            [.frame([0xFF, 0xFE]), .frame([0xC0, 0xAF])]),
    ]

    @Test("decodes the same for every chunking", arguments: cases)
    func decodes(_ c: FramingCase) {
        expectChunkingInvariant(c.input, ndjson(), expected: c.expected)
    }

    @Test("FrameDecoder in ndjson mode decodes the same", arguments: cases)
    func frameDecoderNDJSONMode(_ c: FramingCase) {
        expectChunkingInvariant(c.input, framed(.ndjson), expected: c.expected)
    }

    @Test("a line of exactly maxFrameBytes is accepted, one more byte is not")
    func limitIsInclusive() {
        // `{"a":12}` is 8 bytes, `{"a":123}` is 9.
        expectChunkingInvariant(
            bytes("{\"a\":12}\n[1]\n"), ndjson(8),
            expected: [.frame("{\"a\":12}"), .frame("[1]")])
        expectChunkingInvariant(
            bytes("{\"a\":123}\n[1]\n"), ndjson(8),
            expected: [.error(.oversized(length: nil, limit: 8)), .frame("[1]")],
            compare: \.ignoringOversizedLength, crossNormalize: \.ignoringOversizedLength)
    }

    @Test("an oversized line is reported once, discarded, and the next line still decoded")
    func oversizedLineSkipped() {
        let pad = String(repeating: "x", count: 200)
        let input = bytes("{\"pad\":\"\(pad)\"}\n{\"ok\":true}\n")
        expectChunkingInvariant(
            input, ndjson(16),
            expected: [.error(.oversized(length: nil, limit: 16)), .frame("{\"ok\":true}")],
            compare: \.ignoringOversizedLength, crossNormalize: \.ignoringOversizedLength)
    }

    @Test("two oversized lines in a row are two errors")
    func twoOversizedLines() {
        let long = String(repeating: "7", count: 40)
        expectChunkingInvariant(
            bytes("[\(long)]\r\n[\(long)]\n[]\n"), ndjson(16),
            expected: [
                .error(.oversized(length: nil, limit: 16)), .error(.oversized(length: nil, limit: 16)), .frame("[]"),
            ],
            compare: \.ignoringOversizedLength, crossNormalize: \.ignoringOversizedLength)
    }

    @Test("an oversized unterminated last line is an error, not a frame")
    func oversizedTail() {
        expectChunkingInvariant(
            bytes("{}\n" + String(repeating: "x", count: 40)), ndjson(16),
            expected: [.frame("{}"), .error(.oversized(length: nil, limit: 16))],
            compare: \.ignoringOversizedLength, crossNormalize: \.ignoringOversizedLength)
    }

    @Test("oversized errors carry the configured limit")
    func oversizedLimit() {
        let out = expectChunkingInvariant(
            bytes(String(repeating: "1", count: 11) + "\n"), ndjson(10), crossNormalize: \.ignoringOversizedLength)
        guard case .error(.oversized(_, let limit))? = out.first else {
            Issue.record("expected an oversized error, got \(out)")
            return
        }
        #expect(limit == 10)
        #expect(out.count == 1)
    }

    @Test("bufferedByteCount stays bounded while a huge line streams in", arguments: [false, true])
    func boundedWhileStreaming(throughAutoDecoder: Bool) {
        let limit = 64 * 1024
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        if throughAutoDecoder {
            var d = FrameDecoder(mode: .auto, maxFrameBytes: limit)
            streamHugeLine(&d, chunk: chunk, limit: limit)
            #expect(d.detected == .ndjson)
        } else {
            var d = NDJSONFrameDecoder(maxFrameBytes: limit)
            streamHugeLine(&d, chunk: chunk, limit: limit)
        }
    }

    private func streamHugeLine<D: VerifiableFrameDecoder>(_ d: inout D, chunk: [UInt8], limit: Int) {
        var out: [FrameOutcome] = []
        d.feed(bytes("{\"first\":1}\n{\"pad\":\""))
        drain(&d, into: &out, budget: 100)
        var peak = d.buffered
        for _ in 0..<(8 << 20) / chunk.count {  // 8 MiB of one line
            d.feed(chunk)
            peak = max(peak, d.buffered)
            drain(&d, into: &out, budget: 100)
            peak = max(peak, d.buffered)
        }
        d.feed(bytes("\"}\n{\"after\":2}\n"))
        drain(&d, into: &out, budget: 100)
        #expect(peak <= limit + chunk.count, "peak buffered \(peak) bytes")
        #expect(
            out.map(\.ignoringOversizedLength) == [
                .frame("{\"first\":1}"), .error(.oversized(length: nil, limit: limit)), .frame("{\"after\":2}"),
            ])
        #expect(d.buffered == 0)
    }

    @Test("finish resets the decoder for a new stream")
    func finishResets() throws {
        var d = NDJSONFrameDecoder(maxFrameBytes: 100)
        d.append(bytes("{\"a\""))
        #expect(try d.nextFrame() == nil)
        #expect(d.bufferedByteCount == 4)
        #expect(try d.finish().map(Array.init) == bytes("{\"a\""))
        #expect(d.bufferedByteCount == 0)
        #expect(try d.finish() == nil)
        d.append(bytes("[1]\n"))
        #expect(try d.nextFrame().map(Array.init) == bytes("[1]"))
    }

    @Test("frames returned earlier survive later appends")
    func framesAreStableCopies() throws {
        var d = NDJSONFrameDecoder(maxFrameBytes: 1 << 20)
        d.append(bytes("{\"a\":1}\n"))
        let first = try #require(try d.nextFrame())
        d.append([UInt8](repeating: 0x20, count: 10_000) + bytes("\n{\"b\":2}\n"))
        let second = try #require(try d.nextFrame())
        #expect(Array(first) == bytes("{\"a\":1}"))
        #expect(Array(second) == bytes("{\"b\":2}"))
    }
}
