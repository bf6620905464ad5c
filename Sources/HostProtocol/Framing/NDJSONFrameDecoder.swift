/// Splits a byte stream into newline-delimited JSON frames.
///
/// A pure value: ``append(_:)`` bytes, then call ``nextFrame()`` until it returns
/// nil (incomplete input). Empty and whitespace-only lines are skipped; a `\r`
/// before the `\n` is dropped. A line longer than `maxFrameBytes` is reported
/// once as ``FramingError/oversized(length:limit:)`` and its bytes are discarded
/// as they arrive, up to the next `\n`, so it is never held whole.
///
/// ```swift
/// var d = NDJSONFrameDecoder(maxFrameBytes: 1 << 20)
/// d.append(Array("{\"a\":1}\n{\"b\"".utf8))
/// try d.nextFrame()   // {"a":1}
/// try d.nextFrame()   // nil: the second line is incomplete
/// ```
public struct NDJSONFrameDecoder: Sendable {
    /// The longest frame accepted, in bytes (without the line terminator).
    public let maxFrameBytes: Int
    private var buffer = ByteBuffer()
    /// Absolute index up to which the buffer holds no `\n`.
    private var scanned = 0
    /// True while dropping the rest of an oversized line.
    private var discarding = false

    /// Creates a decoder with a frame size limit.
    public init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Number of bytes held that belong to no complete frame yet.
    public var bufferedByteCount: Int { buffer.count }

    /// Adds input bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let before = buffer.start
        buffer.append(bytes)
        scanned -= before - buffer.start
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        let before = buffer.start
        buffer.append(bytes)
        scanned -= before - buffer.start
    }

    /// The next complete frame, nil when more input is needed.
    ///
    /// A line's length excludes its `\n` and one `\r` just before it. A line
    /// longer than the limit is reported as soon as that is certain (it may still
    /// be arriving), without its length, whatever its content: so the outcome does
    /// not depend on how the input was split into reads.
    public mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        while true {
            scanned = max(scanned, buffer.start)
            guard let newline = buffer.firstIndex(of: 0x0A, from: scanned) else {
                scanned = buffer.endIndex
                if discarding {
                    buffer.consumeAll()
                    scanned = buffer.start
                } else if lineLength(buffer.slice(buffer.start, buffer.endIndex)) > maxFrameBytes {
                    discarding = true
                    buffer.consumeAll()
                    scanned = buffer.start
                    throw FramingError.oversized(length: nil, limit: maxFrameBytes)
                }
                return nil
            }
            let lineStart = buffer.start
            // Slice before consuming: consuming everything may recycle the storage.
            let line = NDJSONFrameDecoder.stripCR(buffer.slice(lineStart, newline))
            buffer.consume(newline + 1 - lineStart)
            scanned = buffer.start
            if discarding {
                discarding = false
                continue
            }
            if line.count > maxFrameBytes {
                throw FramingError.oversized(length: nil, limit: maxFrameBytes)
            }
            if NDJSONFrameDecoder.isBlank(line) { continue }
            return line
        }
    }

    /// Call at end of input: the unterminated last line, if it holds anything but
    /// whitespace, is returned as a final frame (a JSON text need not end in `\n`).
    public mutating func finish() throws(FramingError) -> ArraySlice<UInt8>? {
        defer {
            buffer.consumeAll()
            scanned = buffer.start
            discarding = false
        }
        if discarding { return nil }
        let rest = NDJSONFrameDecoder.stripCR(buffer.slice(buffer.start, buffer.endIndex))
        if rest.count > maxFrameBytes { throw FramingError.oversized(length: nil, limit: maxFrameBytes) }
        if NDJSONFrameDecoder.isBlank(rest) { return nil }
        return rest
    }

    /// The length a partial line will at least have: a trailing `\r` may yet turn
    /// out to be the terminator's.
    private func lineLength(_ partial: ArraySlice<UInt8>) -> Int {
        partial.last == 0x0D ? partial.count - 1 : partial.count
    }

    private static func stripCR(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == 0x0D ? line.dropLast() : line
    }

    static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
