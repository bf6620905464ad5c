/// A JSON value as this protocol sees it.
///
/// Objects are ``JSONObject``s, kept sorted by key bytes (a repeated key keeps its
/// last value, as JavaScript's `JSON.parse` does); numbers keep their literal text
/// (``JSONNumber``). Writing a value always puts object keys in UTF-8 byte order,
/// so output is byte-for-byte stable (see ``JSONWriter``).
///
/// ```swift
/// let v: JSONValue = ["success": false, "label": "sync", "note": .null]
/// v.compactBytes   // {"label":"sync","success":false}
/// ```
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, keeping its literal text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keeping its members' order.
    case object(JSONObject)

    /// An object from a dictionary.
    public static func object(_ members: [String: JSONValue]) -> JSONValue { .object(JSONObject(members)) }

    /// The JSON type's name, for error messages (`"object"`, `"number"`, ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value as a finite `Double` when this is a number that fits one.
    public var doubleValue: Double? {
        if case .number(let n) = self { return n.doubleValue }
        return nil
    }

    /// The value as an `Int64` when this is an integer literal in range.
    public var int64Value: Int64? {
        if case .number(let n) = self { return n.int64Value }
        return nil
    }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Member lookup on objects; nil for other types and absent keys.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A number value from a `Double` (must be finite).
    public static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// A number value from an `Int`.
    public static func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}

// Not ExpressibleByNilLiteral: with it, `nil` in a `JSONValue?` context can
// silently become `.null` instead of `Optional.none`. Write `.null`.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(lastWins: elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact, key-sorted JSON text.
    public var description: String { String(decoding: compactBytes, as: UTF8.self) }
}
