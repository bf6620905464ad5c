extension JSONParser {
    /// The keys of JSON-RPC envelopes.
    static let envelopeKeys = StringTable(["id", "jsonrpc", "method", "params", "result", "error"])
    /// The one `jsonrpc` version.
    static let versions = StringTable(["2.0"])

    /// Parses a string starting at the opening quote; when it is one of `table`'s
    /// (plain, without escapes) that string is returned and no new one is built.
    mutating func parseString(knownIn table: StringTable) throws(JSONParseError) -> String {
        let start = index + 1
        let limit = Swift.min(bytes.count, start + table.maxCount + 1)
        var end = start
        while end < limit, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end < limit, bytes[end] == UInt8(ascii: "\""),
            let known = table.lookup(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        {
            index = end + 1
            return known
        }
        return try parseString()
    }

    /// Parses a string starting at the opening quote; validates UTF-8 and escapes.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes. Find the closing quote.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: raw, as: UTF8.self) }
                guard let s = String(validating: raw, as: UTF8.self) else {
                    throw JSONParseError(offset: start, reason: "invalid UTF-8 in string")
                }
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character in string") }
            if b >= 0x80 { ascii = false }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        // Slow path: escapes present. Collect bytes, then validate once.
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw JSONParseError(offset: start, reason: "invalid UTF-8 in string")
                }
                return s
            }
            if b < 0x20 { throw error("control character in string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape()
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                index -= 1
                throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    /// Parses the hex digits after `\u` (and a low surrogate after a high one).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error("lone high surrogate in \\u escape")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(value)!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("lone low surrogate in \\u escape") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
