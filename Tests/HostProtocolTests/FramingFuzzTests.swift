import HostProtocol
import HostTestSupport
import Testing

/// Long random streams cut at random places: exercises the decoders' buffer
/// reuse and compaction (which only kicks in past 4 KiB) far beyond the short
/// hand-written cases.
@Suite("Framing: long random streams")
struct FramingFuzzTests {
    /// Random frame bodies: compact JSON of varied sizes, never containing a raw LF.
    static func bodies(count: Int, using rng: inout SplitMix64) -> [[UInt8]] {
        (0..<count).map { _ in
            let pad = String(
                repeating: "x", count: Int.random(in: 0...Int.random(in: 1...3000, using: &rng), using: &rng))
            let v: JSONValue = [
                "pad": .string(pad), "n": .number(Int.random(in: 0...1_000_000, using: &rng)),
                "r": randomValue(depth: 2, using: &rng),
            ]
            return v.compactBytes
        }
    }

    /// Cuts `input` into chunks of random sizes, some tiny, some large.
    static func randomChunks(_ input: [UInt8], using rng: inout SplitMix64) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var i = 0
        while i < input.count {
            let size =
                Bool.random(using: &rng) ? Int.random(in: 1...16, using: &rng) : Int.random(in: 1...9000, using: &rng)
            let end = min(input.count, i + size)
            chunks.append(Array(input[i..<end]))
            i = end
        }
        return chunks
    }

    @Test("ndjson: random frames, blank lines and line endings, random chunks", arguments: [1, 2, 3, 4] as [UInt64])
    func ndjsonStream(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let frames = FramingFuzzTests.bodies(count: 300, using: &rng)
        var stream: [UInt8] = []
        for f in frames {
            if Int.random(in: 0..<5, using: &rng) == 0 {
                stream += Array([" \n", "\r\n", "\n", "\t \r\n"].randomElement(using: &rng)!.utf8)
            }
            stream += f
            stream += Bool.random(using: &rng) ? [0x0D, 0x0A] : [0x0A]
        }
        let expected = frames.map { FrameOutcome.frame($0) }
        for round in 0..<8 {
            let chunks = FramingFuzzTests.randomChunks(stream, using: &rng)
            #expect(decode(ndjson(), chunks) == expected, "round \(round)")
            #expect(decode(framed(.auto), chunks) == expected, "round \(round), auto")
        }
    }

    @Test("ndjson: oversized lines interleaved with good ones, random chunks", arguments: [5, 6] as [UInt64])
    func ndjsonOversized(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let limit = 1500
        let frames = FramingFuzzTests.bodies(count: 200, using: &rng)
        var stream: [UInt8] = []
        for f in frames { stream += f + [0x0A] }
        let expected = frames.map {
            $0.count > limit ? FrameOutcome.error(.oversized(length: nil, limit: limit)) : .frame($0)
        }
        #expect(expected.contains { if case .error = $0 { true } else { false } })
        for _ in 0..<8 {
            let chunks = FramingFuzzTests.randomChunks(stream, using: &rng)
            #expect(decode(ndjson(limit), chunks).map(\.ignoringOversizedLength) == expected)
        }
    }

    @Test("lsp: random frames, headers and stray blank lines, random chunks", arguments: [7, 8, 9] as [UInt64])
    func lspStream(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let limit = 2000
        let frames = FramingFuzzTests.bodies(count: 300, using: &rng)
        var stream: [UInt8] = []
        var expected: [FrameOutcome] = []
        for f in frames {
            if Int.random(in: 0..<6, using: &rng) == 0 { stream += Array("\r\n".utf8) }
            let eol = Bool.random(using: &rng) ? "\r\n" : "\n"
            var headers = ["Content-Length: \(f.count)"]
            if Bool.random(using: &rng) { headers.append("Content-Type: application/vscode-jsonrpc; charset=utf-8") }
            if Bool.random(using: &rng) { headers.shuffle(using: &rng) }
            stream += Array((headers.joined(separator: eol) + eol + eol).utf8) + f
            expected.append(f.count > limit ? .error(.oversized(length: f.count, limit: limit)) : .frame(f))
        }
        for round in 0..<8 {
            let chunks = FramingFuzzTests.randomChunks(stream, using: &rng)
            #expect(decode(lsp(limit), chunks) == expected, "round \(round)")
            #expect(decode(framed(.auto, limit), chunks) == expected, "round \(round), auto")
        }
    }

    @Test("random bytes never crash or hang a decoder", arguments: [10, 11, 12] as [UInt64])
    func garbage(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("{}[]\r\n \t:Content-Length: 12\u{FEFF}".utf8) + [0xEF, 0xBB, 0xBF, 0x00, 0xFF]
        for _ in 0..<30 {
            let input = (0..<Int.random(in: 0...3000, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let chunks = FramingFuzzTests.randomChunks(input, using: &rng)
            for mode in FramingMode.allCases {
                let out = decode(framed(mode, 64), chunks)
                let frameBytes = out.reduce(0) { if case .frame(let b) = $1 { $0 + b.count } else { $0 } }
                #expect(frameBytes <= input.count)
            }
        }
    }
}
