/// The rule of a number member that must lie in a range (`IOSPolicy`'s knobs,
/// `plugin/dispatchSchedule`'s `seed`): how it is read, the words of its errors, how it
/// is written and the schema it is documented with. Declared once per kind of member and
/// named by a property wrapper on the member (``InRange``, ``InRangeIfPresent``,
/// ``InRangeOrNull``), so that reading, writing and the OpenRPC schema come from the
/// declaration.
///
/// ```swift
/// enum Percent: DoubleRange { static let bounds = 0.0...100 }
/// struct Params: Codable { @InRangeIfPresent<Percent> var level: Double? }
/// // {"level": 150} -> "level" must be a number from 0 to 100, got 150
/// ```
public protocol NumberRange: Sendable {
    /// The member's Swift type.
    associatedtype Number: Hashable & Sendable
    /// The number `value` holds, or the error's words (`expected`, `found`) when it is
    /// not one in range.
    static func read(_ value: JSONValue) -> Result<Number, NumberRangeMiss>
    /// The number as the protocol writes it.
    static func json(_ number: Number) -> JSONValue
    /// The JSON Schema it is documented with (type and bounds).
    static var schema: JSONValue { get }
    /// What the range's errors say it must be (`"an integer from 1 to 100000"`).
    static var expected: String { get }
    /// A number in range, for ``JSONShape``.
    static var sample: Number { get }
}

/// Why a value is not a number in range: the words of the error.
public struct NumberRangeMiss: Error, Hashable, Sendable {
    /// What the member must be.
    public var expected: String
    /// What it was (a type's name or the number's literal).
    public var found: String
}

/// A range of `Double`s: a value that is not a finite number is a type error (`must be a
/// finite number, got string`), one outside ``bounds`` names the range and the number.
public protocol DoubleRange: NumberRange where Number == Double {
    /// The values accepted.
    static var bounds: ClosedRange<Double> { get }
}

extension DoubleRange {
    /// `"a number from 0 to 1"`.
    public static var expected: String {
        "a number from \(json(bounds.lowerBound)) to \(json(bounds.upperBound))"
    }

    /// A finite number within ``bounds``.
    public static func read(_ value: JSONValue) -> Result<Double, NumberRangeMiss> {
        guard let v = value.doubleValue else {
            return .failure(NumberRangeMiss(expected: Double.jsonExpected, found: value.typeName))
        }
        guard bounds.contains(v) else {
            return .failure(NumberRangeMiss(expected: expected, found: "\(JSONNumber(v))"))
        }
        return .success(v)
    }

    /// The number.
    public static func json(_ number: Double) -> JSONValue { .number(JSONNumber(number)) }

    /// `{"type": "number", "minimum": …, "maximum": …}`.
    public static var schema: JSONValue {
        ["type": "number", "minimum": json(bounds.lowerBound), "maximum": json(bounds.upperBound)]
    }

    /// The lower bound.
    public static var sample: Double { bounds.lowerBound }
}

/// A range of signed integers: any value that is not an integer within ``bounds`` (a string, 2.5,
/// 1e20) names the range and what was found, the number's literal as written.
public protocol IntegerRange: NumberRange where Number: FixedWidthInteger & SignedInteger {
    /// The values accepted.
    static var bounds: ClosedRange<Number> { get }
}

extension IntegerRange {
    /// `"an integer from 1 to 100000"`.
    public static var expected: String { "an integer from \(bounds.lowerBound) to \(bounds.upperBound)" }

    /// A whole number within ``bounds``, however written (`2`, `2.0`, `2e0`).
    public static func read(_ value: JSONValue) -> Result<Number, NumberRangeMiss> {
        guard let n = value.int64Value.flatMap(Number.init(exactly:)), bounds.contains(n) else {
            return .failure(NumberRangeMiss(expected: expected, found: value.literalOrTypeName))
        }
        return .success(n)
    }

    /// The number (one beyond `Int64`, which no reading accepts, as the nearest `Double`).
    public static func json(_ number: Number) -> JSONValue {
        Int64(exactly: number).map { .number(JSONNumber($0)) } ?? .number(JSONNumber(Double(number)))
    }

    /// `{"type": "integer", "minimum": …, "maximum": …}`.
    public static var schema: JSONValue {
        ["type": "integer", "minimum": json(bounds.lowerBound), "maximum": json(bounds.upperBound)]
    }

    /// The lower bound.
    public static var sample: Number { bounds.lowerBound }
}

extension JSONValue {
    /// A number's literal (`2.5`, `1e20`), or the type's name for anything else: what an
    /// error message says was found when a number was out of range or not an integer.
    var literalOrTypeName: String {
        if case .number(let n) = self { return n.literal }
        return typeName
    }
}

extension Decoder {
    /// Reads a number under `range`'s rule; a miss is an error at this decoder's path.
    func readNumber<R: NumberRange>(_ range: R.Type) throws -> R.Number {
        if self is ShapeRecorder { return R.sample }
        let value = try singleValueContainer().decode(JSONValue.self)
        switch R.read(value) {
        case .success(let n): return n
        case .failure(let miss):
            throw JSONDecodingError(path: codingPath.jsonPath, expected: miss.expected, found: miss.found)
        }
    }
}
