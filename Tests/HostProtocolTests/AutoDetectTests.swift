import HostProtocol
import HostTestSupport
import Testing

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

/// An auto-mode stream: what it decodes to and which framing it must detect.
struct AutoCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [FrameOutcome]
    let detected: Framing?
    var testDescription: String { name }

    init(_ name: String, _ input: [UInt8], _ expected: [FrameOutcome], _ detected: Framing?) {
        self.name = name
        self.input = input
        self.expected = expected
        self.detected = detected
    }

    init(_ name: String, _ input: String, _ frames: [String], _ detected: Framing?) {
        self.init(name, bytes(input), frames.map { FrameOutcome.frame($0) }, detected)
    }
}

@Suite("FrameDecoder auto-detection")
struct AutoDetectTests {
    static let cases: [AutoCase] = [
        .init("'{' means ndjson", "{\"a\":1}\n[2]\n", ["{\"a\":1}", "[2]"], .ndjson),
        .init("'[' means ndjson", "[{\"a\":1}]\r\n", ["[{\"a\":1}]"], .ndjson),
        .init("unterminated ndjson line", "{}", ["{}"], .ndjson),
        .init("Content-Length means lsp", lspFrame("{\"a\":1}"), ["{\"a\":1}"], .lsp),
        .init("lower-case header means lsp", "content-length: 2\n\n[]", ["[]"], .lsp),
        .init("Content-Type first means lsp", "Content-Type: x\r\nContent-Length: 2\r\n\r\n{}", ["{}"], .lsp),
        .init("leading whitespace before '{'", " \t\r\n\n{}\n", ["{}"], .ndjson),
        .init("leading whitespace before a header", "\r\n \tContent-Length: 2\r\n\r\n{}", ["{}"], .lsp),
        .init("BOM then '{'", bom + bytes("{\"a\":1}\n"), [.frame("{\"a\":1}")], .ndjson),
        .init("BOM then whitespace then '['", bom + bytes("\n  [1]\n"), [.frame("[1]")], .ndjson),
        .init("BOM then an LSP header", bom + bytes(lspFrame("{}")), [.frame("{}")], .lsp),
        .init("only whitespace: nothing detected", " \n\t\r\n ", [] as [String], nil),
        .init("empty input", "", [] as [String], nil),
        .init("a BOM alone", bom, [], nil),
        .init("a cut-off BOM is truncated input", [0xEF, 0xBB], [.error(.truncated(""))], nil),
        // A complete line that is not a header is a bad header at once (issue 26).
        .init(
            "other bytes mean lsp (and a line that is not a header)", bytes("hello\n"),
            [.error(.malformedHeader(""))], .lsp),
        .init(
            "a BOM after whitespace is not skipped", bytes(" ") + bom + bytes("{}\n"), [.error(.malformedHeader(""))],
            .lsp),
        .init(
            "ndjson stays ndjson after detection", "{}\nContent-Length: 2\r\n\r\n[]",
            ["{}", "Content-Length: 2", "[]"], .ndjson),
        .init(
            "lsp stays lsp after detection", lspFrame("{}") + "\r\n" + lspFrame("{\"b\":[]}"), ["{}", "{\"b\":[]}"],
            .lsp),
    ]

    @Test("decodes and detects the same for every chunking", arguments: cases)
    func detects(_ c: AutoCase) {
        expectChunkingInvariant(c.input, framed(.auto), expected: c.expected)
        for chunking in Chunking.all(c.input) {
            var d = FrameDecoder(mode: .auto, maxFrameBytes: 1 << 20)
            var out: [FrameOutcome] = []
            for chunk in chunking.chunks {
                d.append(chunk)
                drain(&d, into: &out, budget: c.input.count + 16)
            }
            _ = try? d.finish()
            if d.detected != c.detected {
                #expect(d.detected == c.detected, "chunking: \(chunking)")
                break
            }
        }
    }

    @Test("detected is nil until the first significant byte, then fixed")
    func detectedProgression() throws {
        var d = FrameDecoder(mode: .auto, maxFrameBytes: 100)
        #expect(d.detected == nil)
        d.append([0xEF])
        #expect(d.detected == nil)
        #expect(d.bufferedByteCount == 1)
        d.append([0xBB, 0xBF])
        #expect(d.detected == nil)
        d.append(bytes(" \r\n\t"))
        #expect(try d.nextFrame() == nil)
        #expect(d.detected == nil)
        d.append(bytes("["))
        #expect(d.detected == .ndjson)
        d.append(bytes("]\n"))
        #expect(try d.nextFrame().map(Array.init) == bytes("[]"))
        #expect(try d.finish() == nil)
        #expect(d.detected == .ndjson)
    }

    @Test("whitespace ends the BOM window: a later BOM is a significant byte")
    func bomAfterWhitespace() {
        var d = FrameDecoder(mode: .auto, maxFrameBytes: 100)
        d.append(bytes(" "))
        #expect(d.detected == nil)
        d.append([0xEF])
        #expect(d.detected == .lsp)
    }

    @Test(
        "fixed modes report their framing before any input",
        arguments: [(FramingMode.ndjson, Framing.ndjson), (.lsp, .lsp)])
    func fixedModes(mode: FramingMode, framing: Framing) {
        let d = FrameDecoder(mode: mode, maxFrameBytes: 10)
        #expect(d.detected == framing)
        #expect(d.maxFrameBytes == 10)
        #expect(d.bufferedByteCount == 0)
    }

    @Test("a fixed lsp decoder does not auto-detect ndjson")
    func fixedLSPIgnoresBrace() {
        expectChunkingInvariant(bytes("{}\n"), framed(.lsp), expected: [.error(.malformedHeader(""))])
    }

    @Test("a fixed ndjson decoder does not skip a BOM")
    func fixedNDJSONKeepsBOM() {
        expectChunkingInvariant(bom + bytes("{}\n"), framed(.ndjson), expected: [.frame(bom + bytes("{}"))])
    }

    @Test("the limit applies to the detected decoder", arguments: [FramingMode.auto, .ndjson])
    func limitAppliesToNDJSON(mode: FramingMode) {
        expectChunkingInvariant(
            bytes("[" + String(repeating: "1,", count: 20) + "1]\n{}\n"), framed(mode, 16),
            expected: [.error(.oversized(length: nil, limit: 16)), .frame("{}")],
            compare: \.ignoringOversizedLength, crossNormalize: \.ignoringOversizedLength)
    }

    @Test("the limit applies to a detected lsp decoder")
    func limitAppliesToLSP() {
        expectChunkingInvariant(
            bytes(lspFrame("[1,2,3,4,5,6,7,8,9]") + lspFrame("{}")), framed(.auto, 16),
            expected: [.error(.oversized(length: 19, limit: 16)), .frame("{}")])
    }
}
