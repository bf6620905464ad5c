/// An optional member that is always written, `null` when nil, and reads `null` or
/// absence as nil (`TaskRequestInfo.earliestBeginDate`, `PluginConfig`'s processing timer).
///
/// ```swift
/// struct Info: Codable { @ExplicitNull var earliestBeginDate: VirtualTime? }
/// Info(earliestBeginDate: nil) as JSON   // {"earliestBeginDate":null}
/// ```
@propertyWrapper
public struct ExplicitNull<Value: Codable & Hashable & Sendable>: NullableMember, Hashable, Sendable {
    /// The member's value (nil is written as `null`).
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

/// An optional member that reads `null` or absence as nil and is left out when nil
/// (`os/submit`'s `earliestBeginDate`).
@propertyWrapper
public struct NullAsAbsent<Value: Codable & Hashable & Sendable>: NullableMember, Hashable, Sendable {
    /// The member's value (a nil one is left out by the container).
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

/// What ``ExplicitNull`` and ``NullAsAbsent`` share: an optional member that reads
/// `null` as nil and writes nil as `null` where its container writes it at all. Only
/// how a keyed container treats absence and nil tells them apart.
public protocol NullableMember: Codable {
    /// The wrapped type.
    associatedtype Value: Codable & Hashable & Sendable
    /// The member's value.
    var wrappedValue: Value? { get }
    /// Wraps a value.
    init(wrappedValue: Value?)
}

extension NullableMember {
    /// `null` is nil; anything else must be a `Value`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        self.init(wrappedValue: c.decodeNil() ? nil : try c.decode(Value.self))
    }

    /// nil is written as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }

    static var wrappedExpected: String { HostProtocol.jsonExpected(Value.self) }
    static var wrappedSchema: JSONValue? { HostProtocol.jsonSchema(Value.self) }
}

extension ExplicitNull: JSONOptional {}
extension NullAsAbsent: JSONOptional {}

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
extension NullableMember where Value: JSONScalar {
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
    /// The value, or `null` (a nil ``NullAsAbsent`` is left out before it gets here).
    public var jsonValue: JSONValue { wrappedValue?.jsonValue ?? .null }
}

extension ExplicitNull: JSONScalar where Value: JSONScalar {
    /// The wrapped type's schema (the member is marked nullable where it is used).
    public static var jsonSchema: JSONValue { Value.jsonSchema }
}

extension NullAsAbsent: JSONScalar where Value: JSONScalar {
    /// The wrapped type's schema (the member is marked nullable where it is used).
    public static var jsonSchema: JSONValue { Value.jsonSchema }
}
