/// Indented JSON for documents people read (`docs/openrpc.json`): keys sorted as
/// in the compact form, two spaces per level, empty containers as `{}` and `[]`,
/// a newline at the end.
///
/// ```swift
/// JSONWriter.pretty(["b": [1], "a": [:]])
/// // {
/// //   "a": {},
/// //   "b": [
/// //     1
/// //   ]
/// // }
/// ```
extension JSONWriter {
    /// The indented text of `value`, ending in a newline.
    public static func pretty(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        writePretty(value, level: 0, to: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    private static func writePretty(_ value: JSONValue, level: Int, to out: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                out.append(contentsOf: i == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                indent(level + 1, &out)
                writePretty(element, level: level + 1, to: &out)
            }
            out.append(0x0A)
            indent(level, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                out.append(contentsOf: i == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                indent(level + 1, &out)
                writeString(member.key, to: &out)
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                writePretty(member.value, level: level + 1, to: &out)
            }
            out.append(0x0A)
            indent(level, &out)
            out.append(UInt8(ascii: "}"))
        default:
            write(value, to: &out)
        }
    }

    private static func indent(_ level: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
}
