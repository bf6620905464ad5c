import HostProtocol
import Testing

func text(_ v: JSONValue) -> String { String(decoding: v.compactBytes, as: UTF8.self) }

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("compact output, no whitespace anywhere")
    func compact() {
        let v: JSONValue = [1, ["a": [true, .null], "b": "x y"], [], [:], false]
        #expect(text(v) == #"[1,{"a":[true,null],"b":"x y"},[],{},false]"#)
        #expect(text(.null) == "null")
        #expect(text("") == #""""#)
    }

    @Test("object keys are sorted by their UTF-8 bytes")
    func sortedKeys() {
        let keys = ["b", "a", "B", "_", "é", "z", "aa", "", "€", "😀", "A", "a0", "\u{7F}", "\u{FF61}", "ä"]
        var o: [String: JSONValue] = [:]
        for (i, k) in keys.enumerated() { o[k] = .number(i) }
        let expectedOrder = [
            "", "A", "B", "_", "a", "a0", "aa", "b", "z", "\u{7F}", "ä", "é", "€", "\u{FF61}", "😀",
        ]
        #expect(JSONObject(o).keys == expectedOrder)
        let expectedText =
            "{" + expectedOrder.map { k in "\"\(k)\":\(keys.firstIndex(of: k)!)" }.joined(separator: ",") + "}"
        #expect(text(.object(o)) == expectedText)
    }

    @Test("nested objects are sorted too")
    func nestedSorted() {
        let v: JSONValue = ["z": ["y": 1, "x": ["b": 2, "a": 1]], "a": [["d": 0, "c": 0]]]
        #expect(text(v) == #"{"a":[{"c":0,"d":0}],"z":{"x":{"a":1,"b":2},"y":1}}"#)
    }

    @Test("output does not depend on how the dictionary was built")
    func stableAcrossInsertionOrder() {
        let pairs: [(String, JSONValue)] = (0..<40).map { ("key\($0 * 7 % 40)", .number($0)) }
        var rng = SplitMix64(seed: 7)
        let reference = JSONValue.object(Dictionary(uniqueKeysWithValues: pairs)).compactBytes
        for _ in 0..<50 {
            var d: [String: JSONValue] = [:]
            for (k, v) in pairs.shuffled(using: &rng) { d[k] = v }
            d.reserveCapacity(Int.random(in: 0...500, using: &rng))
            #expect(JSONValue.object(d).compactBytes == reference)
        }
    }

    static let escapes: [(String, String)] = [
        ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
        ("\u{8}", #""\b""#), ("\u{C}", #""\f""#), ("\u{0}", #""\u0000""#), ("\u{1}", #""\u0001""#),
        ("\u{B}", #""\u000b""#), ("\u{1F}", #""\u001f""#), ("\u{1B}[0m", #""\u001b[0m""#),
        ("/", #""/""#), ("\u{7F}", "\"\u{7F}\""), ("é😀€", "\"é😀€\""), ("\u{2028}", "\"\u{2028}\""),
        ("a\"b\\c\nd", #""a\"b\\c\nd""#),
    ]

    @Test("strings are escaped minimally", arguments: escapes)
    func escaping(raw: String, written: String) throws {
        #expect(text(.string(raw)) == written)
        var out: [UInt8] = []
        JSONWriter.writeString(raw, to: &out)
        #expect(out == Array(written.utf8))
        #expect(try JSONParser.parse(out) == .string(raw))
    }

    @Test("keys are escaped like strings")
    func keyEscaping() {
        #expect(text(["a\"\n": 1]) == #"{"a\"\n":1}"#)
    }

    @Test("numbers are written as their literal text")
    func numbers() {
        #expect(text(num("1e400")) == "1e400")
        #expect(text(num("-0")) == "-0")
        #expect(text(num("1.50")) == "1.50")
        #expect(text(28) == "28")
        #expect(text(28.5) == "28.5")
        #expect(text(.number(0.1)) == "0.1")
        #expect(text(.number(-7)) == "-7")
    }

    @Test("write appends to the existing buffer")
    func appends() {
        var out = Array("x".utf8)
        JSONWriter.write([1], to: &out)
        JSONWriter.write("s", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"x[1]"s""#)
    }

    @Test("description is the compact text")
    func description() {
        let v: JSONValue = ["b": [1, "two"], "a": .null]
        #expect(v.description == #"{"a":null,"b":[1,"two"]}"#)
    }

    static let roundTrip: [JSONValue] = [
        .null, true, false, 0, -1, 28.5, num("1e400"), num("-0"), num("12345678901234567890123"),
        "", "plain", "\u{0}\u{1}\u{1F}\"\\/\n\r\t\u{8}\u{C}", "é😀\u{10FFFF}\u{FFFD}",
        [], [:], [[[[]]]], ["": ""], ["a": ["b": ["c": [1, 2, 3]]]],
        [
            "jsonrpc": "2.0", "id": .null,
            "error": ["code": -32700, "message": "Parse error: x", "data": ["k": [true]]],
        ],
    ]

    @Test("parse(write(v)) == v", arguments: roundTrip)
    func parseWriteRoundTrip(_ v: JSONValue) throws {
        let written = v.compactBytes
        let back = try JSONParser.parse(written)
        #expect(back == v)
        #expect(back.compactBytes == written, "writing is byte-for-byte stable")
    }

    @Test("parse(write(v)) == v for random values")
    func randomRoundTrip() throws {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<300 {
            let v = randomValue(depth: 4, using: &rng)
            let written = v.compactBytes
            #expect(try JSONParser.parse(written) == v, "\(v)")
            #expect(v.compactBytes == written)
        }
    }

    @Test("write(parse(t)) == t for canonical texts")
    func canonicalTexts() throws {
        for t in [#"{"a":[1,2.5,"x"],"b":{"c":null}}"#, #"[true,false,null,"\u0000"]"#, #"{"":{"":[]}}"#, "-0.0e+00"] {
            #expect(text(try parse(t)) == t)
        }
        #expect(text(try parse(#" { "b" : 1 , "a" : [ ] } "#)) == #"{"a":[],"b":1}"#)
        #expect(text(try parse(#""\u00e9\/\ud83d\ude00""#)) == "\"é/😀\"")
    }
}

func randomValue(depth: Int, using rng: inout SplitMix64) -> JSONValue {
    let pick = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &rng)
    switch pick {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .number(Int.random(in: -1_000_000...1_000_000, using: &rng))
    case 3: return .number(Double.random(in: -1e6...1e6, using: &rng))
    case 4: return .string(randomString(using: &rng))
    case 5, 6:
        return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(depth: depth - 1, using: &rng) })
    default:
        var o: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            o[randomString(using: &rng)] = randomValue(depth: depth - 1, using: &rng)
        }
        return .object(o)
    }
}

func randomString(using rng: inout SplitMix64) -> String {
    let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{FEFF}",
        "\u{2028}",
    ]
    var s = ""
    for _ in 0..<Int.random(in: 0...8, using: &rng) { s.unicodeScalars.append(alphabet.randomElement(using: &rng)!) }
    return s
}
