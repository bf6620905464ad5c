/// An optional number member that must lie from 0 to 1 (`os/setConditions`'s
/// `batteryLevel`), checked as the member is read, so that its error comes in member
/// order: a request with a battery level of 1.5 and a string `lowPowerMode` is told
/// about the battery, as the hand-written reader did.
///
/// Absent reads as nil; `null` or another type is the protocol's usual "must be a
/// finite number" error; a number outside the range is "must be a number from 0 to 1, got
/// 1.5". nil is left out when written.
///
/// ```swift
/// struct Params: Codable { @UnitInterval var batteryLevel: Double? }
/// ```
@propertyWrapper
public struct UnitInterval: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Double?

    /// Wraps a value (not checked: the range is a rule for what arrives on the wire).
    public init(wrappedValue: Double?) { self.wrappedValue = wrappedValue }

    /// A number from 0 to 1.
    public init(from decoder: any Decoder) throws {
        let level = try decoder.singleValueContainer().decode(Double.self)
        guard (0...1).contains(level) else {
            throw JSONDecodingError(
                path: decoder.codingPath.jsonPath, expected: "a number from 0 to 1", found: "\(JSONNumber(level))")
        }
        wrappedValue = level
    }

    /// Only called for a value (a nil one is left out by the container).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension UnitInterval: JSONOptional {
    static var wrappedExpected: String { jsonExpected(Double.self) }
    static var wrappedSchema: JSONValue? { ["type": "number", "minimum": 0, "maximum": 1] }
    static var acceptsNull: Bool { false }
}

extension KeyedDecodingContainer {
    /// A ``UnitInterval`` member: absent reads as nil.
    public func decode(_ type: UnitInterval.Type, forKey key: Key) throws -> UnitInterval {
        try decodeIfPresent(type, forKey: key) ?? UnitInterval(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A ``UnitInterval`` member: nil is left out.
    public mutating func encode(_ value: UnitInterval, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
