/// Text from a peer or a file made safe to show on a terminal: no control character,
/// escape sequence or bidirectional override can reach the terminal raw.
///
/// A plugin's error message, a method name from a trace or a line of a plugin's stderr
/// is data, never a command: `ESC ] 0 ;` would set the window's title, `ESC [ 2 J`
/// clear the screen, U+202E reverse the rest of the line. Every place that prints such
/// text, in the plugin (its diagnostics) and in the host (its reports, timelines and
/// forwarded stderr), passes it through here.
///
/// ```swift
/// print(TerminalText.oneLine(error.message))      // "\u{1b}[2J" prints as \u{1b}[2J
/// print(TerminalText.safe(report))                // newlines and tabs kept
/// ```
public enum TerminalText {
    /// The longest quoted text ``oneLine(_:limit:)`` keeps by default, in UTF-8 bytes.
    public static let defaultLimit = 4096

    /// `text` on one line: every unsafe scalar (``isUnsafe(_:)``) and every line break
    /// or tab written as `\u{HEX}`, and cut at `limit` UTF-8 bytes with
    /// `… (N bytes)` after it.
    public static func oneLine(_ text: String, limit: Int = defaultLimit) -> String {
        escape(text, keepLayout: false, limit: limit)
    }

    /// `text` with its layout kept (`\n` and `\t`) and every other unsafe scalar written
    /// as `\u{HEX}`; never cut.
    public static func safe(_ text: String) -> String {
        escape(text, keepLayout: true, limit: .max)
    }

    /// Whether a scalar must not reach a terminal raw: C0 controls, DEL, C1 controls
    /// (a terminal reads U+009B as CSI), the bidirectional controls (U+061C, U+200E,
    /// U+200F, U+202A to U+202E, U+2066 to U+2069) and the line and paragraph separators
    /// (U+2028, U+2029).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// JSON text (already escaped as JSON requires) with the scalars a terminal must not
    /// see raw written as `\uXXXX` escapes: still the same JSON value, safe to print.
    /// Outside strings JSON text holds no such scalar, so only strings change.
    public static func json(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func escape(_ text: String, keepLayout: Bool, limit: Int) -> String {
        let keep: (Unicode.Scalar) -> Bool = { keepLayout && ($0 == "\n" || $0 == "\t") }
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !keep($0) }) || text.utf8.count > limit else {
            return text
        }
        var out = String.UnicodeScalarView()
        var length = 0
        for scalar in text.unicodeScalars {
            if length >= limit { return String(out) + "… (\(text.utf8.count) bytes)" }
            if isUnsafe(scalar) && !keep(scalar) {
                let escaped = "\\u{" + String(scalar.value, radix: 16) + "}"
                out.append(contentsOf: escaped.unicodeScalars)
                length += escaped.utf8.count
            } else {
                out.append(scalar)
                length += UTF8.width(scalar)
            }
        }
        return String(out)
    }
}
