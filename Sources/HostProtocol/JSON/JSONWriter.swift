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
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.literal.utf8)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(e, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in sortedKeys(members).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The keys of an object in output order (by UTF-8 bytes).
    public static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
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
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
