import HostProtocol

/// Splits the plugin's stdout into frames, strictly: the contract says stdout
/// carries nothing but frames, and that LSP output frames carry `Content-Length` only.
struct OutputSplitter {
    /// One frame taken from stdout.
    struct Frame: Sendable {
        /// The frame's bytes as written, framing included (an ndjson line keeps no `\n`).
        let raw: [UInt8]
        /// The JSON body.
        let body: [UInt8]
    }

    /// Output that is not framed as it must be.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The framing expected on stdout.
    let framing: Framing
    private var buffer: [UInt8] = []
    private var offset = 0

    /// Creates a splitter for one framing.
    init(framing: Framing) {
        self.framing = framing
    }

    /// Adds bytes read from stdout.
    mutating func append(_ bytes: [UInt8]) {
        if offset > 65_536 {
            buffer.removeFirst(offset)
            offset = 0
        }
        buffer += bytes
    }

    /// Bytes not yet taken as a frame.
    var pending: ArraySlice<UInt8> { buffer[offset...] }

    /// The next complete frame, nil when more bytes are needed; throws as soon as
    /// the bytes cannot be the start of a well-formed frame.
    mutating func next() throws(Malformed) -> Frame? {
        switch framing {
        case .ndjson: nextLine()
        case .lsp: try nextLSP()
        }
    }

    private mutating func nextLine() -> Frame? {
        guard let nl = buffer[offset...].firstIndex(of: 0x0A) else { return nil }
        let line = Array(buffer[offset..<nl])
        offset = nl + 1
        return Frame(raw: line, body: line)
    }

    private static let header = Array("content-length:".utf8)

    private mutating func nextLSP() throws(Malformed) -> Frame? {
        var i = offset
        var length: Int?
        while true {
            guard let nl = buffer[i...].firstIndex(of: 0x0A) else {
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
        guard buffer.count - i >= length else { return nil }
        let raw = Array(buffer[offset..<(i + length)])
        let body = Array(buffer[i..<(i + length)])
        offset = i + length
        return Frame(raw: raw, body: body)
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
