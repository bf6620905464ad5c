/// A frame decoder for any ``FramingMode``, including auto-detection.
///
/// In `.auto` mode, leading whitespace (and a UTF-8 byte order mark at the very
/// start of the stream) is skipped; then the first byte decides: `{` or `[`
/// selects ndjson, anything else lsp. ``detected`` tells which was chosen, so
/// that replies can use the same framing.
///
/// ```swift
/// var d = FrameDecoder(mode: .auto, maxFrameBytes: 1 << 20)
/// d.append(Array("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n".utf8))
/// try d.nextFrame()   // the object's bytes
/// d.detected          // .ndjson
/// ```
public struct FrameDecoder: Sendable {
    private enum Inner: Sendable {
        case undecided([UInt8])
        case ndjson(NDJSONFrameDecoder)
        case lsp(LSPFrameDecoder)
    }

    private var inner: Inner
    private var sawFirstByte = false
    /// The longest frame accepted, in bytes.
    public let maxFrameBytes: Int

    /// Creates a decoder.
    public init(mode: FramingMode, maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
        switch mode {
        case .auto: inner = .undecided([])
        case .ndjson: inner = .ndjson(NDJSONFrameDecoder(maxFrameBytes: maxFrameBytes))
        case .lsp: inner = .lsp(LSPFrameDecoder(maxFrameBytes: maxFrameBytes))
        }
    }

    /// The framing in use, nil while `.auto` has not seen a significant byte.
    public var detected: Framing? {
        switch inner {
        case .undecided: nil
        case .ndjson: .ndjson
        case .lsp: .lsp
        }
    }

    /// Number of bytes held that belong to no complete frame yet.
    public var bufferedByteCount: Int {
        switch inner {
        case .undecided(let pending): pending.count
        case .ndjson(let d): d.bufferedByteCount
        case .lsp(let d): d.bufferedByteCount
        }
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        switch inner {
        case .ndjson(var d):
            inner = .undecided([])
            d.append(bytes)
            inner = .ndjson(d)
        case .lsp(var d):
            inner = .undecided([])
            d.append(bytes)
            inner = .lsp(d)
        case .undecided(var pending):
            pending.append(contentsOf: bytes)
            decide(pending)
        }
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    private mutating func decide(_ pendingIn: [UInt8]) {
        var pending = pendingIn
        if !sawFirstByte, pending.count >= 3, pending[0] == 0xEF, pending[1] == 0xBB, pending[2] == 0xBF {
            pending.removeFirst(3)
            sawFirstByte = true  // only one byte order mark, at the very start
        }
        if !sawFirstByte, !pending.isEmpty {
            // A lone BOM prefix may still be arriving.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if pending.count < 3, Array(bom.prefix(pending.count)) == pending {
                inner = .undecided(pending)
                return
            }
            sawFirstByte = true
        }
        guard let first = pending.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            inner = .undecided([])
            return
        }
        let rest = pending[first...]
        if rest.first == UInt8(ascii: "{") || rest.first == UInt8(ascii: "[") {
            var d = NDJSONFrameDecoder(maxFrameBytes: maxFrameBytes)
            d.append(rest)
            inner = .ndjson(d)
        } else {
            var d = LSPFrameDecoder(maxFrameBytes: maxFrameBytes)
            d.append(rest)
            inner = .lsp(d)
        }
    }

    /// The next complete frame, nil when more input is needed.
    public mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        switch inner {
        case .undecided: return nil
        case .ndjson(var d):
            inner = .undecided([])
            defer { inner = .ndjson(d) }
            return try d.nextFrame()
        case .lsp(var d):
            inner = .undecided([])
            defer { inner = .lsp(d) }
            return try d.nextFrame()
        }
    }

    /// Call at end of input: a final unterminated ndjson line, or the error for a
    /// frame cut off by the end of the stream.
    public mutating func finish() throws(FramingError) -> ArraySlice<UInt8>? {
        switch inner {
        case .undecided(let pending):
            // Like the fixed decoders, finishing drops what is held (a cut-off BOM).
            inner = .undecided([])
            if !pending.isEmpty { throw FramingError.truncated("\(pending.count) bytes before any frame") }
            return nil
        case .ndjson(var d):
            inner = .undecided([])
            defer { inner = .ndjson(d) }
            return try d.finish()
        case .lsp(var d):
            inner = .undecided([])
            defer { inner = .lsp(d) }
            try d.finish()
            return nil
        }
    }
}
