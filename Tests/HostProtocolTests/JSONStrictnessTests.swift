import HostProtocol
import Testing

/// Bytes that are not JSON this protocol accepts.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }
    init(_ name: String, _ text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }
    init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

func expectRejected(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let v = try JSONParser.parse(input)
        Issue.record(
            "accepted \(String(decoding: input, as: UTF8.self).debugDescription) as \(v)",
            sourceLocation: sourceLocation)
    } catch {
        #expect(
            error.offset >= 0 && error.offset <= input.count, "offset \(error.offset)", sourceLocation: sourceLocation)
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
    }
}

@Suite("JSONParser: strictness")
struct JSONStrictnessTests {
    static let syntax: [BadInput] = [
        .init("empty", ""), .init("whitespace only", " \n\t"),
        .init("trailing comma in array", "[1,]"), .init("trailing comma in object", "{\"a\":1,}"),
        .init("leading comma", "[,1]"), .init("double comma", "[1,,2]"), .init("lone comma in object", "{,}"),
        .init("leading zero", "01"), .init("negative leading zero", "-01"), .init("double zero", "00"),
        .init("bare minus", "-"), .init("minus then letter", "-a"), .init("1.", "1."), .init(".5", ".5"),
        .init("+1", "+1"), .init("1.e5", "1.e5"), .init("1e", "1e"), .init("1e+", "1e+"), .init("hex", "0x10"),
        .init("underscore", "1_000"), .init("NaN", "NaN"), .init("Infinity", "Infinity"),
        .init("-Infinity", "-Infinity"),
        .init("nan", "nan"), .init("inf in array", "[inf]"), .init("single-quoted string", "'a'"),
        .init("single-quoted key", "{'a':1}"), .init("unquoted key", "{a:1}"), .init("number key", "{1:1}"),
        .init("missing colon", "{\"a\" 1}"), .init("missing value", "{\"a\":}"), .init("missing comma", "[1 2]"),
        .init("tru", "tru"), .init("nul", "nul"), .init("True", "True"), .init("NULL", "NULL"), .init("truex", "truex"),
        .init("[truex]", "[truex]"), .init("two values", "1 2"), .init("two objects", "{}{}"),
        .init("extra bracket", "[]]"),
        .init("trailing garbage", "null x"), .init("unclosed array", "[1"), .init("unclosed object", "{\"a\":1"),
        .init("unclosed string", "\"abc"), .init("close without open", "]"), .init("colon in array", "[1:2]"),
        .init("comment", "[1]//"), .init("block comment", "/*x*/1"), .init("form feed as whitespace", "\u{C}1"),
        .init("vertical tab as whitespace", "\u{B}1"), .init("NBSP as whitespace", "\u{A0}1"),
        .init("BOM before the value", "\u{FEFF}{}"), .init("NUL after the value", "1\u{0}"),
    ]

    @Test("syntax errors are rejected", arguments: syntax)
    func syntaxErrors(_ c: BadInput) {
        expectRejected(c.bytes)
    }

    static let strings: [BadInput] = [
        .init("raw NUL", "\"a\u{0}b\""), .init("raw tab", "\"a\tb\""), .init("raw LF", "\"a\nb\""),
        .init("raw CR", "\"a\rb\""), .init("raw 0x1F", "\"\u{1F}\""), .init("raw LF after an escape", "\"\\n\n\""),
        .init("raw tab in a key", "{\"a\tb\":1}"), .init("\\x escape", "\"\\x41\""), .init("\\a escape", "\"\\a\""),
        .init("\\' escape", "\"\\'\""), .init("\\U escape", "\"\\U0041\""), .init("\\0 escape", "\"\\0\""),
        .init("short \\u", "\"\\u12\""), .init("non-hex \\u", "\"\\u12G4\""), .init("\\u at the end", "\"\\u"),
        .init("backslash at the end", "\"\\"), .init("escaped closing quote only", "\"\\\""),
        .init("lone high surrogate", "\"\\ud800\""), .init("lone low surrogate", "\"\\udc00\""),
        .init("high surrogate then a letter", "\"\\ud800x\""),
        .init("high surrogate then \\u0041", "\"\\ud800\\u0041\""),
        .init("two high surrogates", "\"\\ud800\\ud800\""), .init("pair in the wrong order", "\"\\ude00\\ud83d\""),
        .init("high surrogate then \\n", "\"\\ud83d\\n\""), .init("lone high surrogate in a key", "{\"\\udbff\":1}"),
    ]

    @Test("bad strings and escapes are rejected", arguments: strings)
    func stringErrors(_ c: BadInput) {
        expectRejected(c.bytes)
    }

    static let badUTF8: [BadInput] = [
        .init("overlong slash C0 AF", [0xC0, 0xAF]), .init("overlong C1 BF", [0xC1, 0xBF]),
        .init("overlong 3-byte E0 80 80", [0xE0, 0x80, 0x80]),
        .init("overlong 4-byte F0 80 80 80", [0xF0, 0x80, 0x80, 0x80]),
        .init("encoded high surrogate ED A0 80", [0xED, 0xA0, 0x80]),
        .init("encoded low surrogate ED BF BF", [0xED, 0xBF, 0xBF]),
        .init("stray continuation 80", [0x80]), .init("stray continuation BF", [0x41, 0xBF]),
        .init("truncated 2-byte C3", [0xC3]), .init("truncated 3-byte E2 82", [0xE2, 0x82]),
        .init("truncated 4-byte F0 9F 98", [0xF0, 0x9F, 0x98]),
        .init("beyond U+10FFFF F4 90 80 80", [0xF4, 0x90, 0x80, 0x80]),
        .init("F5 lead byte", [0xF5, 0x80, 0x80, 0x80]), .init("FE", [0xFE]), .init("FF", [0xFF]),
        .init("lead byte then ASCII", [0xC3, 0x41]), .init("truncated before an escape", [0xE2, 0x82, 0x5C, 0x6E]),
    ]

    @Test(
        "invalid UTF-8 is rejected in a plain string, after an escape, in a key, and outside strings",
        arguments: badUTF8)
    func invalidUTF8(_ c: BadInput) {
        let quote: [UInt8] = [0x22]
        expectRejected(quote + c.bytes + quote)
        expectRejected(quote + Array("é\\n".utf8) + c.bytes + quote)
        expectRejected(quote + c.bytes + Array("\\t".utf8) + quote)
        expectRejected(Array("{\"".utf8) + c.bytes + Array("\":1}".utf8))
        expectRejected(Array("[".utf8) + c.bytes + Array("]".utf8))
        expectRejected(c.bytes)
    }

    @Test("an escaped character never repairs invalid raw bytes around it")
    func escapesDoNotCombineWithRawBytes() {
        // A raw lead byte followed by an escape whose UTF-8 would complete it.
        expectRejected(Array("\"".utf8) + [0xC3] + Array("\\u00a9\"".utf8))
        // A valid escape followed by a raw continuation byte.
        expectRejected(Array("\"\\u00e9".utf8) + [0xA9] + Array("\"".utf8))
    }

    @Test("nesting: maxDepth levels are accepted, one more is refused")
    func nestingLimit() throws {
        let max = JSONParser.maxDepth
        #expect(max == 256)
        func arrays(_ n: Int) -> [UInt8] {
            Array(String(repeating: "[", count: n).utf8) + Array(String(repeating: "]", count: n).utf8)
        }
        func objects(_ n: Int) -> [UInt8] {
            Array(String(repeating: "{\"a\":", count: n - 1).utf8) + Array("{}".utf8)
                + Array(String(repeating: "}", count: n - 1).utf8)
        }
        #expect(throws: Never.self) { try JSONParser.parse(arrays(max)) }
        #expect(throws: Never.self) { try JSONParser.parse(objects(max)) }
        expectRejected(arrays(max + 1))
        expectRejected(objects(max + 1))
        // Depth is released when a container closes: siblings at the limit are fine.
        let sibling =
            Array(String(repeating: "[", count: max - 1).utf8) + Array(String(repeating: "]", count: max - 1).utf8)
        #expect(throws: Never.self) { try JSONParser.parse([0x5B] + sibling + [0x2C] + sibling + [0x5D]) }
    }

    @Test("100,000 nested brackets are refused without crashing")
    func deepNestingDoesNotCrash() {
        expectRejected([UInt8](repeating: UInt8(ascii: "["), count: 100_000))
        expectRejected(
            [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
                + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000))
        expectRejected(Array(String(repeating: "{\"a\":", count: 100_000).utf8))
        expectRejected(Array(String(repeating: "[{\"a\":", count: 50_000).utf8))
    }

    static let request =
        #"{"jsonrpc":"2.0","id":"é-1","method":"startKeepalive","params":{"label":"a\"b\\\u00e9\ud83d\ude00","#
        + #""n":-1.5e3,"b":[true,false,null],"o":{}}}"#

    @Test("every proper prefix of a valid request is rejected, none crashes")
    func truncatedPrefixes() throws {
        let full = Array(JSONStrictnessTests.request.utf8)
        let value = try JSONParser.parse(full)
        #expect(value["params"]?["label"] == .string("a\"b\\é😀"))
        for n in 0..<full.count {
            expectRejected(Array(full[..<n]))
            guard case .single(.invalid(id: .null, error: let error)) = Envelope.parse(full[..<n]) else {
                Issue.record("prefix of \(n) bytes was not a parse error")
                continue
            }
            #expect(error.code == .parseError)
        }
    }

    @Test("error offsets point at the problem")
    func offsets() {
        func offset(_ text: String) -> Int? {
            do {
                _ = try JSONParser.parse(Array(text.utf8))
                return nil
            } catch {
                return error.offset
            }
        }
        #expect(offset("  x") == 2)
        #expect(offset("[1 2]") == 3)
        #expect(offset("[1,]") == 3)
        #expect(offset("{} 1") == 3)
    }
}
