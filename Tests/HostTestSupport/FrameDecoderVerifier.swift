import HostProtocol

/// What a frame decoder yields: a frame's bytes or an error.
package enum FrameOutcome: Hashable, Sendable, CustomStringConvertible {
    /// A complete frame.
    case frame([UInt8])
    /// A framing error (the decoder goes on after it).
    case error(FramingError)

    /// A frame given as text.
    package static func frame(_ text: String) -> FrameOutcome { .frame(Array(text.utf8)) }

    package var description: String {
        switch self {
        case .frame(let bytes):
            let text = String(decoding: bytes.prefix(60), as: UTF8.self)
            return "frame(\(bytes.count)B \"\(text)\(bytes.count > 60 ? "…" : "")\")"
        case .error(let e): return "error(\(e))"
        }
    }

    /// Error messages replaced by "": for comparing with hand-written expectations
    /// without pinning the implementation's wording.
    package var kindOnly: FrameOutcome {
        switch self {
        case .frame: self
        case .error(.malformedHeader): .error(.malformedHeader(""))
        case .error(.truncated): .error(.truncated(""))
        case .error(.oversized): self
        }
    }

    /// Only the declared/measured length of an ndjson oversized error dropped.
    package var ignoringOversizedLength: FrameOutcome {
        if case .error(.oversized(_, let limit)) = self { return .error(.oversized(length: nil, limit: limit)) }
        return self
    }
}

/// One way of cutting an input into reads.
package struct Chunking: Sendable, CustomStringConvertible {
    /// "whole", "byte by byte", "split at 17".
    package let description: String
    /// The reads, in order.
    package let chunks: [[UInt8]]

    /// The input in one read.
    package static func whole(_ input: [UInt8]) -> Chunking { Chunking(description: "whole", chunks: [input]) }

    /// Whole, one byte at a time (drip-fed), and every two-read split (0...count).
    package static func all(_ input: [UInt8]) -> [Chunking] {
        var result = [whole(input), Chunking(description: "byte by byte", chunks: input.map { [$0] })]
        for k in 0...input.count {
            result.append(Chunking(description: "split at \(k)", chunks: [Array(input[..<k]), Array(input[k...])]))
        }
        return result
    }
}

/// Checks a frame decoder the way swift-nio's `ByteToMessageDecoderVerifier` checks
/// a byte-to-message decoder: the same input fed whole, drip-fed a byte at a time and
/// split at every byte must decode to the same frames and errors; the decoder must
/// make progress on every call; and nothing may be left over once it has finished.
///
/// ```swift
/// let verifier = FrameDecoderVerifier { NDJSONFrameDecoder(maxFrameBytes: 1 << 20) }
/// let report = verifier.verify(Array("{}\n[1]\n".utf8))
/// report.outcomes   // [.frame("{}"), .frame("[1]")]
/// report.problems   // [] when the decoder is chunking-independent
/// ```
package struct FrameDecoderVerifier<Decoder: VerifiableFrameDecoder> {
    /// What one decoding produced, and what was wrong with it.
    package struct Decoding: Sendable {
        /// Frames and errors, in order, the finishing one included.
        package var outcomes: [FrameOutcome] = []
        /// Broken expectations: no progress, bytes left over after finishing.
        package var problems: [String] = []
    }

    /// What ``verify(_:normalize:)`` found.
    package struct Report: Sendable {
        /// The outcomes of the whole input in one read.
        package var outcomes: [FrameOutcome]
        /// Every broken expectation (empty when the decoder passed).
        package var problems: [String]
    }

    private let make: () -> Decoder

    /// A verifier of the decoders `make` creates (a fresh one per decoding).
    package init(_ make: @escaping () -> Decoder) { self.make = make }

    /// Feeds `chunks` one by one, draining every frame after each, then finishes.
    package func decode(_ chunks: [[UInt8]]) -> Decoding {
        var d = make()
        var result = Decoding()
        let budget = chunks.reduce(0) { $0 + $1.count } + 16
        for chunk in chunks {
            d.feed(chunk)
            if !drainFrames(&d, into: &result.outcomes, budget: budget) {
                result.problems.append("no progress after \(budget) calls of nextFrame()")
                return result
            }
        }
        do {
            if let last = try d.end() { result.outcomes.append(.frame(Array(last))) }
        } catch {
            result.outcomes.append(.error(error))
        }
        if d.buffered != 0 { result.problems.append("\(d.buffered) bytes left over after finishing") }
        return result
    }

    /// Decodes `input` under every ``Chunking/all(_:)``; every chunking must give the
    /// whole input's outcomes (after `normalize`). One mismatch is reported per input.
    package func verify(_ input: [UInt8], normalize: (FrameOutcome) -> FrameOutcome = { $0 }) -> Report {
        let reference = decode([input])
        var report = Report(outcomes: reference.outcomes, problems: reference.problems.map { "whole: \($0)" })
        let expected = reference.outcomes.map(normalize)
        for chunking in Chunking.all(input).dropFirst() {
            let got = decode(chunking.chunks)
            report.problems += got.problems.map { "\(chunking): \($0)" }
            let outcomes = got.outcomes.map(normalize)
            if outcomes != expected {
                report.problems.append("\(chunking): \(outcomes) instead of the whole input's \(expected)")
                break
            }
        }
        return report
    }

}

/// Drains every frame and error `decoder` has ready into `out`, calling `next()` at
/// most `budget` times; false when it was still yielding then (no progress).
package func drainFrames<D: VerifiableFrameDecoder>(_ decoder: inout D, into out: inout [FrameOutcome], budget: Int)
    -> Bool
{
    for _ in 0..<budget {
        do {
            guard let frame = try decoder.next() else { return true }
            out.append(.frame(Array(frame)))
        } catch {
            out.append(.error(error))
        }
    }
    return false
}
