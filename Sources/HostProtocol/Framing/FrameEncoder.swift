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
