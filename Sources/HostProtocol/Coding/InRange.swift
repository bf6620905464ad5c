/// A required number member under a ``NumberRange``'s rule, checked as the member is
/// read, so that errors come in member order.
///
/// ```swift
/// struct Policy: Codable { @InRange<EnergyBudget> var energyBudgetLaunches: Int }
/// ```
@propertyWrapper
public struct InRange<Range: NumberRange>: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Range.Number

    /// Wraps a value (not checked: the range is a rule for what arrives on the wire).
    public init(wrappedValue: Range.Number) { self.wrappedValue = wrappedValue }

    /// A number in range.
    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.readNumber(Range.self) }

    /// Writes the number as the range writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Range.json(wrappedValue))
    }
}

/// An optional number member under a ``NumberRange``'s rule: absent reads as nil and nil
/// is left out; `null` is an error like any other wrong type.
@propertyWrapper
public struct InRangeIfPresent<Range: NumberRange>: Codable, Hashable, Sendable {
    /// The member's value.
    public var wrappedValue: Range.Number?

    /// Wraps a value (not checked).
    public init(wrappedValue: Range.Number?) { self.wrappedValue = wrappedValue }

    /// A number in range.
    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.readNumber(Range.self) }

    /// Only called for a value (a nil one is left out by the container).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(Range.json(wrappedValue)) } else { try c.encodeNil() }
    }
}

/// An optional number member under a ``NumberRange``'s rule where `null` is a value of its
/// own (`os/setPolicy`'s `maxConcurrentTasks`: `null` removes the limit): absent reads as
/// nil, `null` as `.some(nil)`.
@propertyWrapper
public struct InRangeOrNull<Range: NumberRange>: Codable, Hashable, Sendable {
    /// The member's value: nil absent, `.some(nil)` for `null`.
    public var wrappedValue: Range.Number??

    /// Wraps a value (not checked).
    public init(wrappedValue: Range.Number??) { self.wrappedValue = wrappedValue }

    /// `null`, or a number in range.
    public init(from decoder: any Decoder) throws {
        if !(decoder is ShapeRecorder), try decoder.singleValueContainer().decodeNil() {
            wrappedValue = .some(nil)
        } else {
            wrappedValue = .some(try decoder.readNumber(Range.self))
        }
    }

    /// Only called for a value: the number, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if case .some(.some(let n)) = wrappedValue { try c.encode(Range.json(n)) } else { try c.encodeNil() }
    }
}

extension InRange: JSONOptional {
    static var wrappedExpected: String { Range.expected }
    static var wrappedSchema: JSONValue? { Range.schema }
    static var acceptsNull: Bool { false }
}

extension InRangeIfPresent: JSONOptional {
    static var wrappedExpected: String { Range.expected }
    static var wrappedSchema: JSONValue? { Range.schema }
    static var acceptsNull: Bool { false }
}

extension InRangeOrNull: JSONOptional {
    static var wrappedExpected: String { Range.expected }
    static var wrappedSchema: JSONValue? { Range.schema }
}

extension KeyedDecodingContainer {
    /// An ``InRangeIfPresent`` member: absent reads as nil.
    public func decode<R>(_ type: InRangeIfPresent<R>.Type, forKey key: Key) throws -> InRangeIfPresent<R> {
        try decodeIfPresent(type, forKey: key) ?? InRangeIfPresent(wrappedValue: nil)
    }

    /// An ``InRangeOrNull`` member: absent reads as nil.
    public func decode<R>(_ type: InRangeOrNull<R>.Type, forKey key: Key) throws -> InRangeOrNull<R> {
        try decodeIfPresent(type, forKey: key) ?? InRangeOrNull(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// An ``InRangeIfPresent`` member: nil is left out.
    public mutating func encode<R>(_ value: InRangeIfPresent<R>, forKey key: Key) throws {
        guard value.wrappedValue != nil else { return }
        try encodeIfPresent(value as InRangeIfPresent<R>?, forKey: key)
    }

    /// An ``InRangeOrNull`` member: nil is left out, `.some(nil)` written as `null`.
    public mutating func encode<R>(_ value: InRangeOrNull<R>, forKey key: Key) throws {
        guard value.wrappedValue != nil else { return }
        try encodeIfPresent(value as InRangeOrNull<R>?, forKey: key)
    }
}
