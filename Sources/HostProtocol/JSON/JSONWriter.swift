/// Writes compact JSON with object keys sorted by their UTF-8 bytes.
///
/// The output is a pure function of the value: no whitespace, no platform
/// formatting, numbers as their literal text, strings escaped minimally (`"`,
/// `\`, and control characters; everything else is written as raw UTF-8).
///
/// ```swift
/// var out: [UInt8] = []
/// JSONWriter.write(["b": 1, "a": [true, nil]], to: &out)
/// // {"a":[true,null],"b":1}
/// ```
public enum JSONWriter {
    /// Appends the compact JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(literal: "null")
        case .bool(let b): out.append(literal: b ? "true" : "false")
        case .number(let n): out.append(utf8Of: n.literal)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(e, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for member in object.members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: nothing to escape, copy the bytes at once.
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true { appendEscaped(s, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00..<0x20:
                out.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
                ])
            default: out.append(byte)
            }
        }
    }
}

extension JSONValue {
    /// The compact, key-sorted JSON text as bytes.
    public var compactBytes: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.write(self, to: &out)
        return out
    }
}
