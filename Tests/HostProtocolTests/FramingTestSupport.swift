import HostProtocol
import Testing

/// What a decoder yields for a stream: a frame's bytes or a framing error, in order.
enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case frame([UInt8])
    case error(FramingError)

    static func frame(_ text: String) -> Outcome { .frame(Array(text.utf8)) }

    var description: String {
        switch self {
        case .frame(let bytes):
            let text = String(decoding: bytes.prefix(60), as: UTF8.self)
            return "frame(\(bytes.count)B \"\(text)\(bytes.count > 60 ? "…" : "")\")"
        case .error(let e): return "error(\(e))"
        }
    }

    /// Error messages replaced by "": for comparing with hand-written expectations
    /// without pinning the implementation's wording.
    var kindOnly: Outcome {
        switch self {
        case .frame: self
        case .error(.malformedHeader): .error(.malformedHeader(""))
        case .error(.truncated): .error(.truncated(""))
        case .error(.oversized): self
        }
    }

    /// Only the declared/measured length of an ndjson oversized error dropped.
    var ignoringOversizedLength: Outcome {
        if case .error(.oversized(_, let limit)) = self { return .error(.oversized(length: nil, limit: limit)) }
        return self
    }
}

/// The decoders under test, behind one interface.
protocol ChunkDecoder {
    mutating func feed(_ bytes: [UInt8])
    mutating func next() throws(FramingError) -> ArraySlice<UInt8>?
    mutating func end() throws(FramingError) -> ArraySlice<UInt8>?
    var buffered: Int { get }
}

extension NDJSONFrameDecoder: ChunkDecoder {
    mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { try finish() }
    var buffered: Int { bufferedByteCount }
}

extension LSPFrameDecoder: ChunkDecoder {
    mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    mutating func end() throws(FramingError) -> ArraySlice<UInt8>? {
        try finish()
        return nil
    }
    var buffered: Int { bufferedByteCount }
}

extension FrameDecoder: ChunkDecoder {
    mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { try finish() }
    var buffered: Int { bufferedByteCount }
}

/// One way of cutting an input into chunks.
struct Chunking: CustomStringConvertible {
    let description: String
    let chunks: [[UInt8]]

    static func whole(_ input: [UInt8]) -> Chunking { Chunking(description: "whole", chunks: [input]) }

    /// Whole, one byte at a time, and every two-chunk split (0...count).
    static func all(_ input: [UInt8]) -> [Chunking] {
        var result = [whole(input), Chunking(description: "byte by byte", chunks: input.map { [$0] })]
        for k in 0...input.count {
            result.append(Chunking(description: "split at \(k)", chunks: [Array(input[..<k]), Array(input[k...])]))
        }
        return result
    }
}

/// Drains every available frame and error from a decoder.
func drain<D: ChunkDecoder>(_ d: inout D, into out: inout [Outcome], budget: Int) {
    var steps = 0
    while true {
        steps += 1
        if steps > budget {
            Issue.record("decoder made no progress after \(budget) calls of nextFrame()")
            return
        }
        do {
            guard let frame = try d.next() else { return }
            out.append(.frame(Array(frame)))
        } catch {
            out.append(.error(error))
        }
    }
}

/// Feeds `chunks` one by one (draining after each), then finishes.
func decode<D: ChunkDecoder>(_ make: () -> D, _ chunks: [[UInt8]]) -> [Outcome] {
    var d = make()
    var out: [Outcome] = []
    let total = chunks.reduce(0) { $0 + $1.count }
    for chunk in chunks {
        d.feed(chunk)
        drain(&d, into: &out, budget: total + 16)
    }
    do {
        if let last = try d.end() { out.append(.frame(Array(last))) }
    } catch {
        out.append(.error(error))
    }
    return out
}

/// Decodes `input` whole, byte by byte and split at every boundary; expects all
/// of them to give identical outcomes (after `crossNormalize`), and the whole
/// run to match `expected` (by default kind-only: error messages are not pinned).
@discardableResult
func expectChunkingInvariant<D: ChunkDecoder>(
    _ input: [UInt8],
    _ make: () -> D,
    expected: [Outcome]? = nil,
    compare: (Outcome) -> Outcome = \.kindOnly,
    crossNormalize: (Outcome) -> Outcome = { $0 },
    sourceLocation: SourceLocation = #_sourceLocation
) -> [Outcome] {
    let reference = decode(make, [input])
    if let expected {
        #expect(reference.map(compare) == expected.map(compare), "whole input", sourceLocation: sourceLocation)
    }
    let normalizedReference = reference.map(crossNormalize)
    for chunking in Chunking.all(input).dropFirst() {
        let got = decode(make, chunking.chunks).map(crossNormalize)
        if got != normalizedReference {
            #expect(got == normalizedReference, "chunking: \(chunking)", sourceLocation: sourceLocation)
            break  // one report per input is enough
        }
    }
    return reference
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func ndjson(_ max: Int = 1 << 20) -> () -> NDJSONFrameDecoder { { NDJSONFrameDecoder(maxFrameBytes: max) } }
func lsp(_ max: Int = 1 << 20) -> () -> LSPFrameDecoder { { LSPFrameDecoder(maxFrameBytes: max) } }
func framed(_ mode: FramingMode, _ max: Int = 1 << 20) -> () -> FrameDecoder {
    { FrameDecoder(mode: mode, maxFrameBytes: max) }
}

/// An LSP frame with a correct `Content-Length` header.
func lspFrame(_ body: String, headers: String = "") -> String {
    "\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
}

/// One stream and the outcomes it must decode to, for any chunking.
struct FramingCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [Outcome]
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ frames: [String]) {
        self.init(name, Array(input.utf8), frames.map { Outcome.frame($0) })
    }

    init(_ name: String, _ input: String, _ expected: [Outcome]) {
        self.init(name, Array(input.utf8), expected)
    }

    init(_ name: String, _ input: [UInt8], _ expected: [Outcome]) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}
