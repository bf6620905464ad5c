import HostProtocol

/// Judges how a JSON text is written, not what it says: compact (no whitespace
/// outside strings) and every object's keys in sorted order (by their UTF-8
/// bytes, as the contract's determinism rule needs). The text is assumed to be
/// valid JSON (the suite has parsed it already).
///
/// ```swift
/// JSONTextShape.problem(in: Array(#"{"a":1,"b":[2]}"#.utf8))   // nil
/// JSONTextShape.problem(in: Array(#"{"b":1,"a":2}"#.utf8))     // "key \"a\" after \"b\" (keys must be sorted)"
/// ```
enum JSONTextShape {
    /// What is wrong with the text's form, or nil when it is compact with sorted keys.
    static func problem(in text: [UInt8]) -> String? {
        // One entry per open container: for objects, the last key seen (nil before the first).
        var stack: [(isObject: Bool, lastKey: [UInt8]?)] = []
        var expectKey = false
        var i = 0
        while i < text.count {
            let b = text[i]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D:
                return "whitespace at byte \(i) (the text must be compact)"
            case UInt8(ascii: "{"):
                stack.append((true, nil))
                expectKey = true
            case UInt8(ascii: "["):
                stack.append((false, nil))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectKey = false
            case UInt8(ascii: ","):
                expectKey = stack.last?.isObject == true
            case UInt8(ascii: "\""):
                let end = stringEnd(text, from: i)
                if expectKey, let top = stack.indices.last {
                    let key = decodedKey(Array(text[(i + 1)..<(end - 1)]))
                    if let last = stack[top].lastKey, !last.lexicographicallyPrecedes(key) {
                        let (k, l) = (String(decoding: key, as: UTF8.self), String(decoding: last, as: UTF8.self))
                        return "key \"\(k)\" after \"\(l)\" (keys must be sorted)"
                    }
                    stack[top].lastKey = key
                    expectKey = false
                }
                i = end
                continue
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// The index just past the string starting at `start` (a `"`).
    private static func stringEnd(_ text: [UInt8], from start: Int) -> Int {
        var i = start + 1
        while i < text.count {
            switch text[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return text.count
    }

    /// A key's bytes with its escapes decoded (keys compare by what they say, not how they are written).
    private static func decodedKey(_ raw: [UInt8]) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")) else { return raw }
        let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
        guard case .string(let s)? = try? JSONParser.parse(quoted) else { return raw }
        return Array(s.utf8)
    }
}
