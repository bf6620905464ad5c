import HostProtocol
import Testing

@Suite("Terminal text")
struct TerminalTextTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}evil\u{9B}31m\u{2066}x\u{2028}y"

    @Test("one line: every control, C1, bidi control and separator escaped; nothing unsafe is left")
    func oneLine() {
        let line = TerminalText.oneLine(Self.hostile + "\nnext\tcell")
        #expect(line == #"\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}evil\u{9b}31m\u{2066}x\u{2028}y\u{a}next\u{9}cell"#)
        #expect(!line.unicodeScalars.contains(where: TerminalText.isUnsafe))
    }

    @Test("safe text keeps newlines and tabs, escapes the rest")
    func safe() {
        #expect(TerminalText.safe("a\nb\tc\u{1B}[K\r") == "a\nb\tc\\u{1b}[K\\u{d}")
        #expect(TerminalText.safe("plain text, ünïcödé") == "plain text, ünïcödé")
    }

    @Test("text over the limit is cut and says its length")
    func limit() {
        let long = String(repeating: "a", count: 10_000)
        #expect(TerminalText.oneLine(long, limit: 8) == "aaaaaaaa… (10000 bytes)")
    }

    @Test("JSON text stays the same value with unsafe scalars as \\u escapes")
    func json() throws {
        let value = JSONValue.object(["message": .string(Self.hostile), "n": 1])
        let text = TerminalText.json(value.description)
        #expect(!text.unicodeScalars.contains(where: TerminalText.isUnsafe))
        #expect(try JSONParser.parse(Array(text.utf8)) == value)
    }

    @Test("safe scalars are left alone", arguments: ["é", "中", "😀", "\u{A0}", "\u{200B}"])
    func safeScalars(_ text: String) {
        #expect(TerminalText.oneLine(text) == text)
    }
}
