import HostProtocol
import Testing

/// A number means its value however it is written (issue 27, item 5): Rust's
/// serde_json writes `28.0`, `1e16`, `1e-7`, `9500000000000000.0` and `-0.0` where
/// Swift's `JSONNumber(Double)` writes `28`, `1e+16`, `1e-07`, `9.5e+15` and `0`.
@Suite("JSON numbers written either way")
struct JSONNumberFormsTests {
    /// (serde_json's text, Swift's text) for the same `Double`.
    static let pairs: [(String, String)] = [
        ("28.0", "28"), ("1e16", "1e+16"), ("1e-7", "1e-07"), ("9500000000000000.0", "9.5e+15"), ("-0.0", "0"),
        ("2.5e-6", "2.5e-06"), ("1000000000000000.0", "1000000000000000"), ("0.1", "0.1"), ("0.00001", "1e-05"),
    ]

    @Test("serde's and Swift's texts are one Double and one time", arguments: pairs)
    func sameValue(serde: String, swift: String) throws {
        let a = try #require(JSONNumber(literal: serde))
        let b = try #require(JSONNumber(literal: swift))
        #expect(a.doubleValue == b.doubleValue)
        #expect(VirtualTime(seconds: a) == VirtualTime(seconds: b))
        #expect(Double(jsonValue: .number(a)) == Double(jsonValue: .number(b)))
    }

    /// Swift's writer gives the right-hand forms (what docs/protocol.md states).
    @Test("Swift writes the right-hand forms")
    func swiftWrites() {
        #expect(JSONNumber(1e16).literal == "1e+16")
        #expect(JSONNumber(1e-7).literal == "1e-07")
        #expect(JSONNumber(9.5e15).literal == "9.5e+15")
        #expect(JSONNumber(-0.0).literal == "0")
        #expect(JSONNumber(28.0).literal == "28")
    }

    static let wholes: [(String, Int64?)] = [
        ("2", 2), ("2.0", 2), ("2e0", 2), ("2E+0", 2), ("20e-1", 2), ("0.2e1", 2), ("-0.0", 0), ("-0", 0),
        ("-3.000", -3), ("1e16", 10_000_000_000_000_000), ("1e+16", 10_000_000_000_000_000),
        ("9500000000000000.0", 9_500_000_000_000_000), ("9.5e+15", 9_500_000_000_000_000),
        ("9007199254740993.0", 9_007_199_254_740_993), ("9223372036854775807.0", .max),
        ("-9223372036854775808e0", .min), ("0e99999999999999999999", 0), ("0.000e-5", 0),
        ("2.5", nil), ("2.5e0", nil), ("1e-7", nil), ("25e-1", nil), ("9223372036854775808.0", nil),
        ("1e19", nil), ("1e400", nil), ("-1e400", nil), ("12345678901234567890123", nil),
    ]

    /// An integer member takes any text whose value is a whole number in range, exactly.
    @Test("an integer reads from any whole-number text", arguments: wholes)
    func wholeNumbers(text: String, value: Int64?) throws {
        let n = try #require(JSONNumber(literal: text))
        #expect(n.int64Value == value)
        #expect(Int64(jsonValue: .number(n)) == value)
        #expect(Int(jsonValue: .number(n)) == value.map(Int.init))
    }

    @Test("UInt64 reads whole numbers up to 2^64-1 in any form")
    func unsigned() throws {
        func u(_ text: String) -> UInt64? { UInt64(jsonValue: .number(JSONNumber(literal: text)!)) }
        #expect(u("7.0") == 7 && u("7e0") == 7 && u("-0.0") == 0)
        #expect(u("18446744073709551615.0") == .max && u("1.8446744073709551615e19") == .max)
        #expect(u("18446744073709551616") == nil && u("-1.0") == nil && u("0.5") == nil)
    }
}
