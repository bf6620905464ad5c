/// A member whose own members sit in the containing object rather than under a key:
/// `Conditions.ios` (`batteryLevel`, `lowPowerMode`, `deviceInUse` beside the
/// contract's four), `OSSetConditions.IOSParams.base`.
///
/// An optional flattened value is read only when its ``FlattenedPresence/presenceKey``
/// is in the object, and left out when nil.
///
/// ```swift
/// struct Conditions: Codable { var externalPower: Bool; @Flattened var ios: IOSConditions? }
/// // {"batteryLevel":1,"deviceInUse":false,"externalPower":false,"lowPowerMode":false}
/// ```
@propertyWrapper
public struct Flattened<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    /// Reads the value from the containing object's decoder.
    public init(from decoder: any Decoder) throws { wrappedValue = try Value(from: decoder) }

    /// Writes the value's members into the containing object (an optional's wrapped value's).
    public func encode(to encoder: any Encoder) throws {
        if let optional = wrappedValue as? any JSONOptionalValue {
            try optional.wrappedEncodable?.encode(to: encoder)
        } else {
            try wrappedValue.encode(to: encoder)
        }
    }
}

/// A type that can be flattened as an optional member: present when its key is.
public protocol FlattenedPresence {
    /// The member whose presence means the value is there (`"batteryLevel"`).
    static var presenceKey: String { get }
}

/// Any member name, to look for a ``FlattenedPresence/presenceKey``.
struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer {
    /// A ``Flattened`` member: read from this object's own decoder.
    public func decode<V>(_ type: Flattened<V>.Type, forKey key: Key) throws -> Flattened<V> {
        let decoder = try superDecoder()
        (decoder as? ShapeRecorder)?.takeNotes(of: V.self)
        return try Flattened(from: decoder)
    }

    /// An optional ``Flattened`` member: read when its presence key is in this object.
    public func decode<V: FlattenedPresence>(_ type: Flattened<V?>.Type, forKey key: Key) throws -> Flattened<V?> {
        let decoder = try superDecoder()
        if let recorder = decoder as? ShapeRecorder {
            recorder.takeNotes(of: V.self)
            return Flattened(wrappedValue: try recorder.optionally { try V(from: recorder) })
        }
        guard try decoder.container(keyedBy: NameKey.self).contains(NameKey(stringValue: V.presenceKey)) else {
            return Flattened(wrappedValue: nil)
        }
        return Flattened(wrappedValue: try V(from: decoder))
    }
}

extension KeyedEncodingContainer {
    /// A ``Flattened`` member: written into this object (left out when an optional is nil).
    public mutating func encode<V>(_ value: Flattened<V>, forKey key: Key) throws {
        if let optional = value.wrappedValue as? any JSONOptionalValue, optional.isNil { return }
        try value.encode(to: superEncoder())
    }
}

/// Tells a nil optional inside a generic value, and unwraps it.
protocol JSONOptionalValue {
    var isNil: Bool { get }
    var wrappedEncodable: (any Encodable)? { get }
}

extension Optional: JSONOptionalValue {
    var isNil: Bool { self == nil }
    var wrappedEncodable: (any Encodable)? { self.flatMap { $0 as? any Encodable } }
}
