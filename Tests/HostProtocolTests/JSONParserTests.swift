import HostProtocol
import Testing

func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

func num(_ literal: String) -> JSONValue { .number(JSONNumber(literal: literal)!) }

/// A text and the value it must parse to.
struct ParseCase: Sendable, CustomTestStringConvertible {
    let text: String
    let value: JSONValue
    var testDescription: String { text }
    init(_ text: String, _ value: JSONValue) {
        self.text = text
        self.value = value
    }
}

@Suite("JSONParser: valid input")
struct JSONParserTests {
    static let values: [ParseCase] = [
        .init("null", .null),
        .init("true", .bool(true)),
        .init("false", .bool(false)),
        .init("0", num("0")),
        .init("-0", num("-0")),
        .init("42", num("42")),
        .init("-1.5e-3", num("-1.5e-3")),
        .init("1E+2", num("1E+2")),
        .init("0.000", num("0.000")),
        .init("\"\"", .string("")),
        .init("\"abc\"", .string("abc")),
        .init("[]", .array([])),
        .init("{}", .object([:])),
        .init("[1,\"a\",null,true,false,{\"b\":[]}]", .array([num("1"), "a", .null, true, false, ["b": []]])),
        .init("{\"a\":{\"b\":{\"c\":[[],[{}]]}}}", ["a": ["b": ["c": [[], [[:]]]]]]),
        .init(" \t\r\n[ 1 ,\n\t2 ] \r\n", [1, 2]),
        .init("{ \"k\" : \"v\" , \"n\" : null }", ["k": "v", "n": .null]),
        .init("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .string("\"\\/\u{8}\u{C}\n\r\t")),
        .init("\"\\u0041\\u00e9\\u20AC\"", .string("Aé€")),
        .init("\"\\u0000\\u001f\"", .string("\u{0}\u{1F}")),
        .init("\"\\ud83d\\ude00\"", .string("😀")),
        .init("\"\\uD83D\\uDE00x\"", .string("😀x")),
        .init("\"\\udbff\\udfff\"", .string("\u{10FFFF}")),
        .init("\"é😀€\u{7F}\"", .string("é😀€\u{7F}")),
        .init("\"a\\nb😀\"", .string("a\nb😀")),
        .init("{\"é\":\"\\u00e9\"}", ["é": "é"]),
        .init("\"\u{2028}\u{2029}\"", .string("\u{2028}\u{2029}")),
    ]

    @Test("parses every kind of value", arguments: values)
    func parses(_ c: ParseCase) throws {
        #expect(try parse(c.text) == c.value)
    }

    @Test("duplicate keys keep the last value")
    func duplicateKeys() throws {
        #expect(try parse("{\"a\":1,\"b\":2,\"a\":3}") == ["a": 3, "b": 2])
        #expect(try parse("{\"a\":{\"x\":1},\"a\":[]}") == ["a": []])
        #expect(try parse("{\"id\":1,\"id\":\"1\"}")["id"] == .string("1"))
    }

    @Test("keys that differ only in Unicode normalization are different keys")
    func canonicallyEquivalentKeys() throws {
        // U+00E9 and U+0065 U+0301 are different JSON strings (RFC 8259 compares code units).
        let t = "{\"\u{E9}\":1,\"e\u{301}\":2}"
        let v = try parse(t)
        #expect(v.objectValue?.count == 2)
        #expect(v.compactBytes.count == Array(t.utf8).count, "writing must keep both members")
    }

    @Test(
        "numbers keep their literal text",
        arguments: ["1e400", "-1e400", "-0", "12345678901234567890123", "1.0", "1.50", "1E2", "1e-400", "-0.0e+00"])
    func numberLiterals(_ literal: String) throws {
        let v = try parse(literal)
        guard case .number(let n) = v else {
            Issue.record("not a number: \(v)")
            return
        }
        #expect(n.literal == literal)
        #expect(v.compactBytes == Array(literal.utf8))
        #expect(try parse("[\(literal)]").compactBytes == Array("[\(literal)]".utf8))
    }

    @Test("numbers with the same value but different text are different")
    func numberIdentity() throws {
        #expect(try parse("1") != parse("1.0"))
        #expect(try parse("0") != parse("-0"))
        #expect(try parse("1e2") != parse("100"))
        #expect(try parse("1") == parse(" 1 "))
    }

    @Test("number accessors")
    func numberAccessors() throws {
        #expect(try parse("1e400").doubleValue == nil)
        #expect(try parse("-1e400").doubleValue == nil)
        #expect(try parse("1e-400").doubleValue == 0)
        #expect(try parse("28.5").doubleValue == 28.5)
        #expect(try parse("9223372036854775807").int64Value == Int64.max)
        #expect(try parse("-9223372036854775808").int64Value == Int64.min)
        #expect(try parse("9223372036854775808").int64Value == nil)
        // A whole number in any form is an integer (JSON Schema's `integer`, issue 27 item 5).
        #expect(try parse("1.0").int64Value == 1)
        #expect(try parse("1e2").int64Value == 100)
        #expect(try parse("1.5").int64Value == nil)
        #expect(try parse("12345678901234567890123").doubleValue == 1.2345678901234568e22)
    }

    @Test("parses from a slice that does not start at index 0")
    func parsesSlice() throws {
        let storage = Array("xx[1,{\"a\":true}]yy".utf8)
        #expect(try JSONParser.parse(storage[2..<16]) == [1, ["a": true]])
        #expect(throws: JSONParseError.self) { try JSONParser.parse(storage[1..<16]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(storage[2..<17]) }
    }

    @Test("JSONValue accessors and type names")
    func accessors() throws {
        let v = try parse("{\"s\":\"x\",\"b\":true,\"a\":[1],\"o\":{},\"n\":null,\"d\":2.5}")
        #expect(v["s"]?.stringValue == "x")
        #expect(v["b"]?.boolValue == true)
        #expect(v["a"]?.arrayValue == [1])
        #expect(v["o"]?.objectValue == [:])
        #expect(v["n"]?.isNull == true)
        #expect(v["d"]?.doubleValue == 2.5)
        #expect(v["missing"] == nil)
        #expect(v["s"]?["x"] == nil)
        #expect(v["s"]?.boolValue == nil)
        #expect(
            ["s", "b", "a", "o", "n", "d"].map { v[$0]!.typeName }
                == ["string", "boolean", "array", "object", "null", "number"])
    }

    @Test("JSONNumber(literal:) accepts exactly the JSON number grammar")
    func numberGrammar() {
        for good in [
            "0", "-0", "1", "-1", "10", "1.5", "0.5", "1e5", "1E-5", "1e+5", "-0.0e0", "123456789012345678901234567890",
        ] {
            #expect(JSONNumber(literal: good)?.literal == good, "\(good)")
        }
        for bad in [
            "", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "0x1", "1_0", " 1", "1 ", "NaN", "Infinity", "1.2.3",
            "--1", "1e5.5",
        ] {
            #expect(JSONNumber(literal: bad) == nil, "\(bad)")
        }
    }

    @Test("JSONNumber from Double: whole values without a fraction, others shortest round-trip")
    func numberFromDouble() {
        #expect(JSONNumber(28.0).literal == "28")
        #expect(JSONNumber(-3.0).literal == "-3")
        #expect(JSONNumber(28.5).literal == "28.5")
        #expect(JSONNumber(0.1).literal == "0.1")
        #expect(JSONNumber(900.0).literal == "900")
        #expect(JSONNumber(Int.min).literal == "-9223372036854775808")
        #expect(JSONNumber(Int64(7)).literal == "7")
        var rng = SplitMix64(seed: 42)
        var samples: [Double] = [
            0, -0.0, 1e-5, .leastNonzeroMagnitude, 1.7976931348623157e308, 1e16, -1e16, 9.007199254740993e15,
            123456.789,
        ]
        for _ in 0..<500 {
            samples.append(Double(bitPattern: rng.next() & ~(1 << 62)))  // exponent below the all-ones: finite
            samples.append(Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng)))
            samples.append(Double(Int64.random(in: -100_000...100_000, using: &rng)) / 1000)
        }
        for d in samples where d.isFinite {
            let n = JSONNumber(d)
            #expect(JSONNumber(literal: n.literal) != nil, "\(d) -> \(n.literal) is not a JSON number")
            #expect(Double(n.literal) == d || (d == 0 && Double(n.literal) == 0), "\(d) -> \(n.literal)")
        }
    }
}
