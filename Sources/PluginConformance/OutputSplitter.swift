import HostProtocol
import PluginHost

/// Splits the plugin's stdout into frames, strictly: the contract says stdout
/// carries nothing but frames, and that LSP output frames carry `Content-Length` only.
///
/// Linear in what it is given: the search for the end of a line (or of an LSP
/// header) goes on from where the last search stopped, so a line that arrives in a
/// thousand pieces is scanned once, not a thousand times; and it holds at most one
/// frame of ``maxFrameBytes`` (a longer one is ``Malformed/oversize``, never held).
struct OutputSplitter {
    /// One frame taken from stdout.
    struct Frame: Sendable {
        /// The frame's bytes as written, framing included (an ndjson line keeps no `\n`).
        let raw: [UInt8]
        /// The JSON body.
        let body: [UInt8]
    }

    /// Output that is not framed as it must be, or a frame past the size bound.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
        /// The frame is longer than ``OutputSplitter/maxFrameBytes``: the plugin broke the
        /// transport (nothing of it was kept), rather than a framing rule.
        var oversize = false
    }

    /// The framing expected on stdout.
    let framing: Framing
    /// The longest frame accepted (body and headers).
    let maxFrameBytes: Int
    /// The longest LSP header line accepted (a `Content-Length: N` line is 30 bytes).
    static let maxHeaderLine = 1024
    private var buffer: [UInt8] = []
    /// Where the next frame starts.
    private var offset = 0
    /// ndjson: where the search for the next newline goes on (the bytes from `offset`
    /// up to here hold none).
    private var scanned = 0
    /// How many bytes the searches for a newline have read, over the splitter's life
    /// (for the test that splitting is linear: at most about every byte once).
    private(set) var bytesSearched = 0

    /// Creates a splitter for one framing.
    init(framing: Framing, maxFrameBytes: Int = 16 << 20) {
        self.framing = framing
        self.maxFrameBytes = maxFrameBytes
    }

    /// ndjson: the length of a line that cannot end within ``maxFrameBytes``, once seen
    /// (its bytes are not kept).
    private var overflow: Int?

    /// Adds bytes read from stdout.
    mutating func append(_ bytes: [UInt8]) {
        if framing == .ndjson, scanned >= buffer.count, buffer.count - offset + bytes.count > maxFrameBytes,
            !bytes.contains(0x0A)
        {
            // The line pending holds no newline and cannot end within the bound: it is
            // refused from what is held already, not grown to its full length.
            overflow = buffer.count - offset + bytes.count
            return
        }
        // Dropping what was taken costs what is left: done once half the buffer is
        // taken, so that each byte is moved a bounded number of times.
        if offset > 65_536, offset >= buffer.count / 2 {
            buffer.removeFirst(offset)
            scanned -= offset
            offset = 0
        }
        if buffer.count + bytes.count > buffer.capacity, buffer.count + bytes.count > 1 << 20 {
            // A long frame: room for the longest at once, rather than doubling past it
            // (a copy of 16 MiB into 32). Pages not written to cost no memory.
            buffer.reserveCapacity(max(maxFrameBytes, buffer.count) + bytes.count + (1 << 20))
        }
        buffer += bytes
    }

    /// Bytes not yet taken as a frame.
    var pending: ArraySlice<UInt8> { buffer[offset...] }

    /// The next complete frame, nil when more bytes are needed; throws as soon as
    /// the bytes cannot be the start of a well-formed frame, or of one within the bound.
    mutating func next() throws(Malformed) -> Frame? {
        switch framing {
        case .ndjson: try nextLine()
        case .lsp: try nextLSP()
        }
    }

    private mutating func nextLine() throws(Malformed) -> Frame? {
        if let overflow { throw oversize("a line of \(OutputMeter.size(overflow)) and no end yet") }
        let from = max(offset, scanned)
        let nl = buffer[from...].firstIndex(of: 0x0A)
        bytesSearched += (nl.map { $0 + 1 } ?? buffer.count) - from
        guard let nl else {
            scanned = buffer.count
            if buffer.count - offset > maxFrameBytes {
                throw oversize("a line of \(OutputMeter.size(buffer.count - offset)) and no end yet")
            }
            return nil
        }
        guard nl - offset <= maxFrameBytes else { throw oversize("a line of \(OutputMeter.size(nl - offset))") }
        let line = Array(buffer[offset..<nl])
        offset = nl + 1
        scanned = offset
        return Frame(raw: line, body: line)
    }

    private static let header = Array("content-length:".utf8)

    private mutating func nextLSP() throws(Malformed) -> Frame? {
        var i = offset
        var length: Int?
        while true {
            // A header line is short, and there are at most two: each call reads them
            // again (a few dozen bytes) rather than remembering them.
            let end = min(buffer.count, i + Self.maxHeaderLine + 2)
            guard let nl = buffer[i..<end].firstIndex(of: 0x0A) else {
                guard end - i <= Self.maxHeaderLine + 1 else {
                    throw Malformed(
                        description:
                            "an LSP header line longer than \(Self.maxHeaderLine) bytes: "
                            + ConformanceText.escape(buffer[i..<end]))
                }
                // An incomplete line: the start of a header, or of the blank line.
                if buffer[i...].elementsEqual([0x0D]) { return nil }
                try checkHeaderPrefix(buffer[i...])
                return nil
            }
            let hasCR = nl > i && buffer[nl - 1] == 0x0D
            let line = buffer[i..<(hasCR ? nl - 1 : nl)]
            if !line.isEmpty { try checkHeaderPrefix(line) }
            guard hasCR else {
                throw Malformed(
                    description: "an LSP header line must end in \\r\\n: \(ConformanceText.escape(buffer[offset...nl]))"
                )
            }
            i = nl + 1
            if line.isEmpty { break }
            let value = String(decoding: line.dropFirst(Self.header.count), as: UTF8.self).trimmingSpaces
            guard length == nil, let n = Int(value), n >= 0, value.allSatisfy(\.isASCII) else {
                throw Malformed(description: "bad output header \"\(ConformanceText.escape(line))\"")
            }
            length = n
        }
        guard let length else {
            throw Malformed(
                description: "an LSP output frame without Content-Length: \(ConformanceText.escape(buffer[offset..<i]))"
            )
        }
        guard length <= maxFrameBytes else { throw oversize("a Content-Length of \(OutputMeter.size(length))") }
        guard buffer.count - i >= length else { return nil }
        let raw = Array(buffer[offset..<(i + length)])
        let body = Array(buffer[i..<(i + length)])
        offset = i + length
        return Frame(raw: raw, body: body)
    }

    /// The error for a frame past the bound: `a line of 16 MiB and no end yet on stdout, …`.
    private func oversize(_ what: String) -> Malformed {
        Malformed(
            description:
                "\(what) on stdout, past the largest frame the suite accepts (\(OutputMeter.size(maxFrameBytes)))",
            oversize: true)
    }

    /// Throws unless `line` is (the start of) a `Content-Length:` header.
    private func checkHeaderPrefix(_ line: ArraySlice<UInt8>) throws(Malformed) {
        for (k, b) in zip(Self.header, line) where Self.lower(b) != k {
            throw Malformed(
                description:
                    "expected an LSP frame (\"Content-Length: N\" header only), got "
                    + "\(ConformanceText.escape(buffer[offset...]))"
            )
        }
    }

    private static func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b + 0x20 : b }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
