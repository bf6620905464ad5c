/// A JSON-RPC request id: a string, a number or null, kept with its type.
///
/// The string `"1"` and the number `1` are different ids. Numbers keep their
/// literal text (``JSONNumber``), so `1` and `1.0` are different ids too, and a
/// number beyond `Int64` is echoed exactly as it came.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case number(JSONNumber)
    case null

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
