/// An optional member that is always written, `null` when nil, and reads `null` or
/// absence as nil (`TaskRequestInfo.earliestBeginDate`, `PluginConfig`'s processing timer).
///
/// ```swift
/// struct Info: Codable { @ExplicitNull var earliestBeginDate: VirtualTime? }
/// Info(earliestBeginDate: nil) as JSON   // {"earliestBeginDate":null}
/// ```
@propertyWrapper
public struct ExplicitNull<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// `null` is nil; anything else must be a `Value`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    /// nil is written as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

/// An optional member that reads `null` or absence as nil and is left out when nil
/// (`os/submit`'s `earliestBeginDate`).
@propertyWrapper
public struct NullAsAbsent<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// `null` is nil; anything else must be a `Value`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    /// Only called for a value (a nil one is left out by the container).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension ExplicitNull: JSONOptional {
    static var wrappedExpected: String { HostProtocol.jsonExpected(Value.self) }
    static var wrappedSchema: JSONValue? { HostProtocol.jsonSchema(Value.self) }
}

extension NullAsAbsent: JSONOptional {
    static var wrappedExpected: String { HostProtocol.jsonExpected(Value.self) }
    static var wrappedSchema: JSONValue? { HostProtocol.jsonSchema(Value.self) }
}

extension KeyedDecodingContainer {
    /// An ``ExplicitNull`` member: absent reads as nil.
    public func decode<V>(_ type: ExplicitNull<V>.Type, forKey key: Key) throws -> ExplicitNull<V> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }

    /// A ``NullAsAbsent`` member: absent reads as nil.
    public func decode<V>(_ type: NullAsAbsent<V>.Type, forKey key: Key) throws -> NullAsAbsent<V> {
        try decodeIfPresent(type, forKey: key) ?? NullAsAbsent(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A ``NullAsAbsent`` member: nil is left out.
    public mutating func encode<V>(_ value: NullAsAbsent<V>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

// Around a scalar, the wrappers are scalars too: the coders read and write them as one
// value, with the wrapped type's words, and need no nested container (a quarter of
// the cost of writing a `TaskRequestInfo`).
extension ExplicitNull: JSONScalar where Value: JSONScalar {
    /// The wrapped type's words.
    public static var jsonExpected: String { Value.jsonExpected }
    /// `null` is nil; anything else must be a `Value`.
    public init?(jsonValue: JSONValue) {
        if jsonValue.isNull {
            self.init(wrappedValue: nil)
        } else if let value = Value(jsonValue: jsonValue) {
            self.init(wrappedValue: value)
        } else {
            return nil
        }
    }
    /// The value, or `null`.
    public var jsonValue: JSONValue { wrappedValue?.jsonValue ?? .null }
}

extension NullAsAbsent: JSONScalar where Value: JSONScalar {
    /// The wrapped type's words.
    public static var jsonExpected: String { Value.jsonExpected }
    /// `null` is nil; anything else must be a `Value`.
    public init?(jsonValue: JSONValue) {
        if jsonValue.isNull {
            self.init(wrappedValue: nil)
        } else if let value = Value(jsonValue: jsonValue) {
            self.init(wrappedValue: value)
        } else {
            return nil
        }
    }
    /// The value (a nil one is left out by the container before it gets here).
    public var jsonValue: JSONValue { wrappedValue?.jsonValue ?? .null }
}
