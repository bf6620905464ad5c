/// Why a frame could not be taken from the stream. The decoder has already skipped
/// the bad input when it reports one of these, so decoding can go on.
public enum FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A frame longer than the limit; its bytes are being discarded, not buffered.
    /// `length` is the declared length when known (LSP), nil for an unterminated ndjson line.
    case oversized(length: Int?, limit: Int)
    /// An LSP header block without a usable `Content-Length` (missing, negative,
    /// not a number, repeated), or with a line that is not a header; skipped up to its blank line.
    case malformedHeader(String)
    /// The input ended in the middle of a frame.
    case truncated(String)

    /// The JSON-RPC error the contract prescribes for this framing problem.
    public var rpcError: RPCError {
        switch self {
        case .oversized(let length, let limit):
            if let length {
                return .invalidRequest("frame of \(length) bytes exceeds the limit of \(limit) bytes")
            }
            return .invalidRequest("frame exceeds the limit of \(limit) bytes")
        case .malformedHeader(let why): return .parseError("bad LSP header: \(why)")
        case .truncated(let why): return .parseError("truncated frame at end of input: \(why)")
        }
    }

    public var description: String { rpcError.message }
}
