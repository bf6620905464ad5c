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
