import HostProtocol
import Testing

@Suite("VirtualTime")
struct VirtualTimeTests {
    static let fromDouble: [(Double, Int64)] = [
        (0, 0), (28, 28_000_000_000), (28.5, 28_500_000_000), (-28.5, -28_500_000_000), (0.1, 100_000_000),
        (0.0001, 100_000), (1e-9, 1), (0.4e-9, 0), (0.6e-9, 1), (-0.6e-9, -1), (1.0000000004, 1_000_000_000),
        (1.0000000006, 1_000_000_001), (900, 900_000_000_000), (-0.0, 0),
    ]

    @Test("seconds convert to the nearest nanosecond", arguments: fromDouble)
    func secondsToNanoseconds(seconds: Double, ns: Int64) {
        #expect(VirtualTime.nanoseconds(fromSeconds: seconds) == ns)
        #expect(VirtualTime(seconds: seconds)?.nanoseconds == ns)
    }

    @Test("NaN and infinities are not times")
    func nonFinite() {
        #expect(VirtualTime(seconds: .nan) == nil)
        #expect(VirtualTime(seconds: .infinity) == nil)
        #expect(VirtualTime(seconds: -.infinity) == nil)
        #expect(VirtualTime.nanoseconds(fromSeconds: .nan) == nil)
    }

    @Test("times clamp to ±limit")
    func clamping() {
        #expect(VirtualTime.limit == 1 << 62)
        #expect(VirtualTime(seconds: 1e30)?.nanoseconds == VirtualTime.limit)
        #expect(VirtualTime(seconds: -1e30)?.nanoseconds == -VirtualTime.limit)
        #expect(VirtualTime(seconds: Double.greatestFiniteMagnitude)?.nanoseconds == VirtualTime.limit)
        #expect(VirtualTime(nanoseconds: .max).nanoseconds == VirtualTime.limit)
        #expect(VirtualTime(nanoseconds: .min).nanoseconds == -VirtualTime.limit)
        #expect(VirtualTime(nanoseconds: VirtualTime.limit - 1).nanoseconds == VirtualTime.limit - 1)
    }

    static let decimals: [(Int64, String)] = [
        (0, "0"), (28_000_000_000, "28"), (28_500_000_000, "28.5"), (100_000, "0.0001"), (1, "0.000000001"),
        (-1, "-0.000000001"), (-500_000_000, "-0.5"), (-28_000_000_000, "-28"), (1_100_000_000, "1.1"),
        (123_000_000_010, "123.00000001"), (28_000_000_001, "28.000000001"), (999_999_999, "0.999999999"),
        (VirtualTime.limit, "4611686018.427387904"), (-VirtualTime.limit, "-4611686018.427387904"),
    ]

    @Test("decimal formatting is exact, without trailing zeros", arguments: decimals)
    func decimalFormatting(ns: Int64, text: String) throws {
        let t = VirtualTime(nanoseconds: ns)
        #expect(t.decimalSeconds == text)
        #expect(t.description == text + "s")
        #expect(t.json.compactBytes == Array(text.utf8))
        #expect(JSONNumber(literal: text) != nil, "a valid JSON number")
        // And the text reads back to the same nanoseconds.
        #expect(VirtualTime(seconds: JSONNumber(literal: text)!)?.nanoseconds == ns)
        #expect(try VirtualTime(jsonValue: JSONParser.parse(Array(text.utf8))) == t)
    }

    static let exactLiterals: [(String, Int64?)] = [
        ("28", 28_000_000_000), ("0.000000001", 1), ("0.1", 100_000_000), ("1.123456789", 1_123_456_789),
        ("123456.123456789", 123_456_123_456_789), ("-0.5", -500_000_000), ("-0", 0), ("28.50", 28_500_000_000),
        ("1e-9", 1), ("2.8E1", 28_000_000_000), ("1e400", nil), ("-1e400", nil), ("1e-400", 0),
        ("5000000000", VirtualTime.limit), ("-5000000000", -VirtualTime.limit), ("1e30", VirtualTime.limit),
        ("99999999999", VirtualTime.limit), ("4611686018.427387903", VirtualTime.limit - 1),
    ]

    @Test("JSON numbers of seconds convert exactly", arguments: exactLiterals)
    func fromJSONNumber(literal: String, ns: Int64?) {
        #expect(VirtualTime(seconds: JSONNumber(literal: literal)!)?.nanoseconds == ns)
    }

    @Test("every time written as JSON reads back to itself")
    func jsonRoundTrip() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let scale = Int64(1) << Int64.random(in: 0...62, using: &rng)
            let t = VirtualTime(nanoseconds: Int64.random(in: -scale...scale, using: &rng))
            let back = try VirtualTime(jsonValue: JSONParser.parse(t.json.compactBytes))
            #expect(back == t, "\(t.decimalSeconds)")
        }
    }

    static let hugeSeconds = ["9999999999", "-9999999999", "9223372036.854775808", "9999999999.999999999"]

    @Test("seconds beyond Int64 nanoseconds clamp instead of crashing", arguments: hugeSeconds)
    func hugeSecondsDoNotCrash(_ literal: String) async {
        await #expect(processExitsWith: .success) { [literal] in
            let t = VirtualTime(seconds: JSONNumber(literal: literal)!)
            guard t?.nanoseconds.magnitude == UInt64(VirtualTime.limit) else { fatalError("not clamped") }
        }
    }

    @Test("os/advanceTime params with huge seconds do not crash", arguments: hugeSeconds)
    func hugeAdvanceDoesNotCrash(_ literal: String) async {
        await #expect(processExitsWith: .success) { [literal] in
            let params: JSONValue = ["seconds": .number(JSONNumber(literal: literal)!)]
            _ = try? OSAdvanceTime.Params(json: params)
        }
    }

    @Test("an exit test of a time that converts fine exits normally (control for the test above)")
    func exitTestControl() async {
        await #expect(processExitsWith: .success) {
            guard VirtualTime(seconds: JSONNumber(literal: "5000000000")!)?.nanoseconds == VirtualTime.limit else {
                fatalError("not clamped")
            }
        }
    }

    @Test("adding nanoseconds and seconds")
    func adding() {
        let t = VirtualTime(seconds: 28)!
        #expect(t.adding(nanoseconds: 1).decimalSeconds == "28.000000001")
        #expect(t.adding(nanoseconds: -28_000_000_001).decimalSeconds == "-0.000000001")
        #expect(VirtualTime.zero.adding(seconds: 28).nanoseconds == 28_000_000_000)
        #expect(t.adding(seconds: 0.5).decimalSeconds == "28.5")
        #expect(t.adding(seconds: -30).decimalSeconds == "-2")
        var sum = VirtualTime.zero
        for _ in 0..<10 { sum = sum.adding(seconds: 0.1) }
        #expect(sum.nanoseconds == 1_000_000_000, "each step rounds to whole nanoseconds")
        #expect(t.adding(seconds: .nan) == t)
        #expect(t.adding(seconds: .infinity).nanoseconds == VirtualTime.limit)
        #expect(t.adding(seconds: -.infinity).nanoseconds == -VirtualTime.limit)
    }

    @Test("adding clamps at the limit, overflow included")
    func addingClamps() {
        let near = VirtualTime(nanoseconds: VirtualTime.limit - 1)
        #expect(near.adding(nanoseconds: 10).nanoseconds == VirtualTime.limit)
        #expect(near.adding(nanoseconds: .max).nanoseconds == VirtualTime.limit)
        #expect(
            VirtualTime(nanoseconds: -VirtualTime.limit).adding(nanoseconds: .min).nanoseconds == -VirtualTime.limit)
        #expect(near.adding(seconds: 1e300).nanoseconds == VirtualTime.limit)
        #expect(VirtualTime.zero.adding(seconds: -1e300).nanoseconds == -VirtualTime.limit)
        #expect(near.adding(nanoseconds: -1).nanoseconds == VirtualTime.limit - 2)
    }

    @Test("ordering, zero and seconds")
    func ordering() {
        let a = VirtualTime(nanoseconds: 1)
        let b = VirtualTime(nanoseconds: 2)
        #expect(a < b)
        #expect(!(b < a))
        #expect(VirtualTime(nanoseconds: -1) < .zero)
        #expect([b, .zero, a].sorted() == [.zero, a, b])
        #expect(VirtualTime.zero.nanoseconds == 0)
        #expect(VirtualTime(seconds: 28.5)!.seconds == 28.5)
        #expect(VirtualTime(seconds: 28)! == VirtualTime(nanoseconds: 28_000_000_000))
    }
}
