/// A type read and written as one JSON value, with the words its errors use.
///
/// ``JSONValueDecoder`` and ``JSONValueEncoder`` handle these directly (no nested
/// container), which keeps the protocol's error texts: a member of type `Double`
/// that is a string fails with `"seconds" must be a finite number, got string`.
///
/// ```swift
/// extension VirtualTime: JSONScalar {
///     public static let jsonExpected = "a finite number of seconds"
///     ...
/// }
/// ```
public protocol JSONScalar: Codable, Sendable {
    /// Words for error messages: `"a boolean"`, `"one of refresh, processing"`.
    static var jsonExpected: String { get }
    /// The value, or nil when `jsonValue` has the wrong type or is out of range.
    init?(jsonValue: JSONValue)
    /// The value as JSON.
    var jsonValue: JSONValue { get }
    /// The JSON Schema it is documented with (`{"type": "boolean"}`, a `$ref`).
    static var jsonSchema: JSONValue { get }
}

extension JSONScalar {
    /// Reads the value through any decoder (for coders other than ``JSONValueDecoder``).
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoding {
            guard let value = Self(jsonValue: decoder.value) else {
                throw JSONDecodingError(
                    path: decoder.codingPath.jsonPath, expected: Self.jsonExpected, found: decoder.value.typeName)
            }
            self = value
            return
        }
        throw JSONDecodingError(path: decoder.codingPath.jsonPath, expected: Self.jsonExpected, found: "another coder")
    }

    /// Writes the value through any encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(JSONValueBox(jsonValue))
    }
}

/// A string enum written as its raw value; its errors name every case
/// (`"one of available, denied, restricted"`).
public protocol JSONStringEnum: JSONScalar, RawRepresentable, CaseIterable where RawValue == String {}

extension JSONStringEnum {
    /// `"one of a, b, c"`, the cases in declaration order.
    public static var jsonExpected: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
    /// The case named by a JSON string.
    public init?(jsonValue: JSONValue) {
        guard case .string(let s) = jsonValue else { return nil }
        self.init(rawValue: s)
    }
    /// The raw value as a JSON string.
    public var jsonValue: JSONValue { .string(rawValue) }

    /// Reads the case (chosen over `RawRepresentable`'s default so that errors name the cases).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let raw = try c.decode(String.self)
        guard let value = Self(rawValue: raw) else {
            throw JSONDecodingError(path: decoder.codingPath.jsonPath, expected: Self.jsonExpected, found: "string")
        }
        self = value
    }

    /// Writes the raw value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// Lets ``JSONScalar/encode(to:)`` hand a finished value to ``JSONValueEncoder``.
struct JSONValueBox: Encodable {
    let value: JSONValue
    init(_ value: JSONValue) { self.value = value }
    func encode(to encoder: any Encoder) throws {
        guard let encoder = encoder as? JSONValueEncoding else { return }
        encoder.store(value)
    }
}

/// An `Optional` type, to tell `Double??`'s inner optional from a plain member.
protocol JSONOptional {
    /// The wrapped type's expected text.
    static var wrappedExpected: String { get }
    /// The wrapped type's schema, when it is a scalar.
    static var wrappedSchema: JSONValue? { get }
    /// Whether `null` reads as nil (not so for ``UnitInterval``).
    static var acceptsNull: Bool { get }
}

extension JSONOptional {
    static var acceptsNull: Bool { true }
}

extension Optional: JSONOptional {
    static var wrappedExpected: String { jsonExpected(Wrapped.self) }
    static var wrappedSchema: JSONValue? { HostProtocol.jsonSchema(Wrapped.self) }
}
