import HostProtocol
import HostTestSupport
import Testing

/// Drains what `d` has ready (``drainFrames(_:into:budget:)``), recording no progress as an issue.
func drain<D: VerifiableFrameDecoder>(
    _ d: inout D, into out: inout [FrameOutcome], budget: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    if !drainFrames(&d, into: &out, budget: budget) {
        Issue.record("decoder made no progress after \(budget) calls of nextFrame()", sourceLocation: sourceLocation)
    }
}

/// Decodes `chunks` with a fresh decoder from `make` (``FrameDecoderVerifier/decode(_:)``),
/// recording the verifier's problems (no progress, left-overs) as issues.
func decode<D: VerifiableFrameDecoder>(
    _ make: @escaping () -> D, _ chunks: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation
) -> [FrameOutcome] {
    let decoding = FrameDecoderVerifier(make).decode(chunks)
    for problem in decoding.problems { Issue.record("\(problem)", sourceLocation: sourceLocation) }
    return decoding.outcomes
}

/// Decodes `input` whole, byte by byte and split at every boundary
/// (``FrameDecoderVerifier/verify(_:normalize:)``); expects all of them to give
/// identical outcomes (after `crossNormalize`), and the whole run to match `expected`
/// (by default kind-only: error messages are not pinned).
@discardableResult
func expectChunkingInvariant<D: VerifiableFrameDecoder>(
    _ input: [UInt8],
    _ make: @escaping () -> D,
    expected: [FrameOutcome]? = nil,
    compare: (FrameOutcome) -> FrameOutcome = \.kindOnly,
    crossNormalize: (FrameOutcome) -> FrameOutcome = { $0 },
    sourceLocation: SourceLocation = #_sourceLocation
) -> [FrameOutcome] {
    let report = FrameDecoderVerifier(make).verify(input, normalize: crossNormalize)
    if let expected {
        #expect(report.outcomes.map(compare) == expected.map(compare), "whole input", sourceLocation: sourceLocation)
    }
    for problem in report.problems { Issue.record("\(problem)", sourceLocation: sourceLocation) }
    return report.outcomes
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
    let expected: [FrameOutcome]
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ frames: [String]) {
        self.init(name, Array(input.utf8), frames.map { FrameOutcome.frame($0) })
    }

    init(_ name: String, _ input: String, _ expected: [FrameOutcome]) {
        self.init(name, Array(input.utf8), expected)
    }

    init(_ name: String, _ input: [UInt8], _ expected: [FrameOutcome]) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}
