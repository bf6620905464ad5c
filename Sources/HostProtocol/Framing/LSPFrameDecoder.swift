/// Splits a byte stream into `Content-Length`-framed messages (LSP base protocol).
///
/// Header names are case-insensitive; `Content-Type` and unknown headers are
/// accepted and ignored; header lines may end in `\r\n` or `\n`. A header block
/// without a usable `Content-Length` is reported as
/// ``FramingError/malformedHeader(_:)`` and skipped up to its blank line; a line that
/// is not `Name: value` at all (a JSON line where a header was expected, text typed by
/// hand) is reported as soon as its `\n` arrives, with the block so far, since the
/// blank line may never come; a
/// declared length above `maxFrameBytes` is reported as
/// ``FramingError/oversized(length:limit:)`` and that many body bytes are
/// discarded as they arrive, never buffered whole.
///
/// ```swift
/// var d = LSPFrameDecoder(maxFrameBytes: 1 << 20)
/// d.append(Array("content-length: 2\r\n\r\n{}".utf8))
/// try d.nextFrame()   // {}
/// ```
public struct LSPFrameDecoder: Sendable {
    /// The longest body accepted, in bytes.
    public let maxFrameBytes: Int
    /// The longest header block accepted, in bytes.
    public static let maxHeaderBytes = 8192

    private enum State: Sendable {
        case header
        case body(Int)
        case skippingBody(Int)
        /// Dropping a header block that is too long, up to its blank line;
        /// `midLine` when the bytes dropped so far ended inside a line.
        case skippingHeader(midLine: Bool)
    }

    private var buffer = ByteBuffer()
    private var state = State.header
    /// Where the search for the header block's blank line resumes (absolute
    /// indices): the start of the line being read, and how far it has been searched
    /// for its `\n`. Without them a header block arriving a few bytes per read was
    /// scanned again from its start on every read: quadratic, 10 ms of CPU for one
    /// 8 KiB header sent a byte at a time. (Found profiling FuzzTargets/DecoderFuzzer.)
    private var lineStart = 0
    private var searchFrom = 0

    /// Creates a decoder with a body size limit.
    public init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Number of bytes held that belong to no complete frame yet.
    public var bufferedByteCount: Int { buffer.count }

    /// Adds input bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let before = buffer.start
        buffer.append(bytes)
        shiftScan(by: before - buffer.start)
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        let before = buffer.start
        buffer.append(bytes)
        shiftScan(by: before - buffer.start)
    }

    /// Appending may move the unconsumed bytes to the front of the storage.
    private mutating func shiftScan(by delta: Int) {
        lineStart -= delta
        searchFrom -= delta
    }

    /// Consumes bytes at the front; the header scan starts over after them.
    private mutating func consume(_ n: Int) {
        buffer.consume(n)
        lineStart = buffer.start
        searchFrom = buffer.start
    }

    /// The next complete frame body, nil when more input is needed.
    public mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>? {
        while true {
            switch state {
            case .body(let length):
                guard buffer.count >= length else { return nil }
                let from = buffer.start
                let body = buffer.slice(from, from + length)
                consume(length)
                state = .header
                return body
            case .skippingBody(let remaining):
                let n = min(remaining, buffer.count)
                consume(n)
                if n < remaining {
                    state = .skippingBody(remaining - n)
                    return nil
                }
                state = .header
            case .skippingHeader(let midLine):
                guard skipHeaderLines(midLine: midLine) else { return nil }
                state = .header
            case .header:
                guard let (lines, blockEnd, contentLength) = try takeHeaderBlock() else {
                    // Incomplete: its content is at least what is here, but for a
                    // possible `\r` of the blank line still arriving.
                    if buffer.count - 1 > LSPFrameDecoder.maxHeaderBytes {
                        state = .skippingHeader(midLine: false)
                        throw FramingError.malformedHeader(
                            "header block longer than \(LSPFrameDecoder.maxHeaderBytes) bytes")
                    }
                    return nil
                }
                consume(blockEnd - buffer.start)
                if contentLength > LSPFrameDecoder.maxHeaderBytes {
                    throw FramingError.malformedHeader(
                        "header block longer than \(LSPFrameDecoder.maxHeaderBytes) bytes")
                }
                if lines.isEmpty { continue }  // stray blank line between frames
                let length = try LSPFrameDecoder.contentLength(lines)
                if length > maxFrameBytes {
                    state = .skippingBody(length)
                    throw FramingError.oversized(length: length, limit: maxFrameBytes)
                }
                state = .body(length)
            }
        }
    }

    /// Call at end of input: reports a frame cut off by the end of the stream.
    public mutating func finish() throws(FramingError) {
        defer {
            consume(buffer.count)
            state = .header
        }
        switch state {
        case .body(let length):
            throw FramingError.truncated("body has \(buffer.count) of \(length) bytes")
        case .header:
            if !NDJSONFrameDecoder.isBlank(buffer.slice(buffer.start, buffer.endIndex)) {
                throw FramingError.truncated("incomplete header block")
            }
        case .skippingBody, .skippingHeader:
            return
        }
    }

    /// Finds a complete header block: its non-empty lines, the absolute index just
    /// past its terminating blank line, and the length of its content (the bytes
    /// before the blank line). Nil when the blank line has not arrived; the search
    /// resumes where it stopped when more bytes come. A line that is not a header line
    /// is thrown as soon as it is complete, consumed with the lines before it, unless
    /// it ends past `maxHeaderBytes + 1` (then the block is too long, as it would be
    /// had the line arrived in pieces).
    private mutating func takeHeaderBlock() throws(FramingError) -> ([ArraySlice<UInt8>], Int, Int)? {
        while let newline = buffer.firstIndex(of: 0x0A, from: max(searchFrom, lineStart)) {
            // Byte `maxHeaderBytes + 1` of the block came before this `\n`: arriving
            // in pieces, the block was already too long then, so it is now too.
            if newline - buffer.start > LSPFrameDecoder.maxHeaderBytes + 1 {
                searchFrom = buffer.endIndex
                return nil
            }
            var lineEnd = newline
            if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart {
                return (headerLines(upTo: lineStart), newline + 1, lineStart - buffer.start)
            }
            let line = buffer.slice(lineStart, lineEnd)
            if !LSPFrameDecoder.isHeaderLine(line) {
                let text = String(decoding: line.prefix(40), as: UTF8.self)
                consume(newline + 1 - buffer.start)
                throw FramingError.malformedHeader(
                    "not a header line (\"Name: value\"): \"\(text)\"\(line.count > 40 ? "..." : "")")
            }
            lineStart = newline + 1
            searchFrom = lineStart
        }
        searchFrom = buffer.endIndex
        return nil
    }

    /// The lines of the header block that ends at `end` (its blank line's start).
    private func headerLines(upTo end: Int) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = buffer.start
        while start < end, let newline = buffer.firstIndex(of: 0x0A, from: start) {
            var lineEnd = newline
            if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lines.append(buffer.slice(start, lineEnd))
            start = newline + 1
        }
        return lines
    }

    /// Drops header lines up to and including the blank line that ends the block.
    /// Returns true once the blank line has been dropped; memory stays bounded
    /// meanwhile (a partial line is dropped as it comes, remembering it was partial,
    /// so that its own `\r\n` is not mistaken for the blank line).
    private mutating func skipHeaderLines(midLine startMidLine: Bool) -> Bool {
        var midLine = startMidLine
        while let newline = buffer.firstIndex(of: 0x0A, from: buffer.start) {
            var lineEnd = newline
            if lineEnd > buffer.start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let blank = !midLine && lineEnd == buffer.start
            consume(newline + 1 - buffer.start)
            if blank { return true }
            midLine = false
        }
        // No newline left: drop the partial line, but keep a lone `\r` at the start
        // of a line (it may begin the blank line).
        if !(buffer.count == 1 && buffer[buffer.start] == 0x0D && !midLine), buffer.count > 0 {
            consume(buffer.count)
            midLine = true
        }
        state = .skippingHeader(midLine: midLine)
        return false
    }

    /// The `Content-Length` of a header block, or why there is none usable.
    static func contentLength(_ lines: [ArraySlice<UInt8>]) throws(FramingError) -> Int {
        var length: Int?
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw FramingError.malformedHeader("header line without ':'")
            }
            let name = trim(line[line.startIndex..<colon])
            guard equalsIgnoringASCIICase(name, "content-length") else { continue }
            guard length == nil else { throw FramingError.malformedHeader("Content-Length given twice") }
            let value = trim(line[(colon + 1)...])
            guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                let text = String(decoding: value.prefix(40), as: UTF8.self)
                throw FramingError.malformedHeader("Content-Length is not a non-negative integer: \"\(text)\"")
            }
            length = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let length else { throw FramingError.malformedHeader("no Content-Length header") }
        return length
    }

    /// Whether a line has the shape of a header: a name of token characters (RFC 9110),
    /// spaces or tabs allowed around it, then `:`.
    static func isHeaderLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = trim(line[line.startIndex..<colon])
        return !name.isEmpty && name.allSatisfy(isTokenCharacter)
    }

    private static func isTokenCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    private static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var a = s.startIndex
        var b = s.endIndex
        while a < b, s[a] == 0x20 || s[a] == 0x09 { a += 1 }
        while b > a, s[b - 1] == 0x20 || s[b - 1] == 0x09 { b -= 1 }
        return s[a..<b]
    }

    private static func equalsIgnoringASCIICase(_ s: ArraySlice<UInt8>, _ lower: StaticString) -> Bool {
        guard s.count == lower.utf8CodeUnitCount else { return false }
        var i = 0
        for b in s {
            let folded = (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
            if folded != lower.utf8Start[i] { return false }
            i += 1
        }
        return true
    }
}
