/// How JSON-RPC messages are delimited on a byte stream.
public enum Framing: String, Sendable, CaseIterable, Hashable {
    /// One compact JSON text per line, `\n`-terminated (a `\r` before it is ignored).
    case ndjson
    /// `Content-Length: N` headers, a blank line, then N bytes (the Language Server Protocol's framing).
    case lsp
}

/// The framing a decoder is asked to use: fixed, or detected from the first byte.
public enum FramingMode: String, Sendable, CaseIterable, Hashable {
    /// The first non-whitespace byte decides: `{` or `[` means ndjson, anything else lsp.
    case auto
    /// One JSON text per line, ended by `\n`.
    case ndjson
    /// LSP-style: a `Content-Length` header, a blank line, then the body.
    case lsp
}

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

/// Writes frames: a body followed by `\n` (ndjson) or preceded by a
/// `Content-Length` header (lsp).
public enum FrameEncoder {
    /// Appends one framed message body to `out`.
    public static func append(_ body: some Collection<UInt8>, framing: Framing, to out: inout [UInt8]) {
        switch framing {
        case .ndjson:
            out.append(contentsOf: body)
            out.append(0x0A)
        case .lsp:
            out.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
            out.append(contentsOf: body)
        }
    }

    /// One framed message as bytes.
    public static func frame(_ body: some Collection<UInt8>, framing: Framing) -> [UInt8] {
        var out: [UInt8] = []
        append(body, framing: framing, to: &out)
        return out
    }
}
