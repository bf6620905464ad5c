/// A JSON number that keeps the exact text it was written with.
///
/// Keeping the literal means an id such as `12345678901234567890123` or `1e400`
/// is echoed back byte for byte, and two numbers compare equal only when their
/// texts are equal (`1` and `1.0` are different ids, as documented in
/// `docs/protocol.md`).
///
/// ```swift
/// let n = JSONNumber(28)          // "28"
/// let d = JSONNumber(0.5)         // "0.5"
/// let parsed = JSONNumber(literal: "1e400")!
/// parsed.doubleValue              // nil: not a finite Double
/// ```
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number's JSON text, exactly as parsed or as formatted.
    public let literal: String

    /// Wraps a literal that is already known to match the JSON number grammar.
    init(uncheckedLiteral literal: String) {
        self.literal = literal
    }

    /// Creates a number from its JSON text; nil when the text is not a JSON number.
    public init?(literal: String) {
        guard JSONNumber.isValidLiteral(Array(literal.utf8)) else { return nil }
        self.literal = literal
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        self.literal = String(value)
    }

    /// Creates a number from an `Int64`.
    public init(_ value: Int64) {
        self.literal = String(value)
    }

    /// Creates a number from a finite `Double`: whole values are written without a
    /// fraction (`28`, not `28.0`); others use Swift's shortest round-tripping form.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON cannot represent \(value)")
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            self.literal = String(Int64(value))
        } else {
            // Swift's shortest round-tripping form ("0.5", "1e-05") is valid JSON.
            self.literal = "\(value)"
        }
    }

    /// The value as a finite `Double`, or nil when it overflows (`1e400`).
    public var doubleValue: Double? {
        guard let d = Double(literal), d.isFinite else { return nil }
        return d
    }

    /// The value as an `Int64` when it is a whole number in range, however it is
    /// written (`2`, `2.0`, `2e0`: see ``exactInteger(_:)``).
    public var int64Value: Int64? { exactInteger(Int64.self) }

    public var description: String { literal }

    /// Checks a byte sequence against the JSON number grammar (RFC 8259 section 6).
    static func isValidLiteral(_ bytes: [UInt8]) -> Bool {
        var i = 0
        let n = bytes.count
        func digits() -> Int {
            let start = i
            while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == n
    }
}
