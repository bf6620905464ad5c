#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON-RPC request id: a string, a number or null, kept with its type.
///
/// The string `"1"` and the number `1` are different ids. Numbers keep their
/// literal text (``JSONNumber``), so `1` and `1.0` are different ids too, and a
/// number beyond `Int64` is echoed exactly as it came.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    /// A string id.
    case string(String)
    /// A number id, with its literal text.
    case number(JSONNumber)
    /// The null id (an answer to a request whose id could not be read).
    case null

    /// Ids are equal when their JSON texts are: strings compare by their UTF-8 bytes
    /// (Swift's `==` would equate canonically equivalent strings such as "é" and
    /// "e\u{301}", which are different ids on the wire).
    public static func == (a: RequestID, b: RequestID) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): sameBytes(x, y)
        // Number literals are ASCII, where `==` compares bytes.
        case (.number(let x), .number(let y)): x.literal == y.literal
        case (.null, .null): true
        default: false
        }
    }

    /// Whether two strings have the same UTF-8 bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                pa.count == pb.count && (pa.isEmpty || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0)
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(var s):
            hasher.combine(0)
            s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .number(let n):
            hasher.combine(1)
            var literal = n.literal
            literal.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .null:
            hasher.combine(2)
        }
    }

    /// A numeric id from an integer.
    public static func int(_ value: Int) -> RequestID { .number(JSONNumber(value)) }

    /// Reads an id from a JSON value; nil for types an id cannot have.
    public init?(json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as a JSON value.
    public var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .null: .null
        }
    }

    /// The id's JSON text (`"a"`, `7`, `null`).
    public var description: String { json.description }
}
