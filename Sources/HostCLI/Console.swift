import Foundation
import HostProtocol

/// Where `plugin-host` writes: every line goes through ``TerminalText``, so that text
/// from a plugin or a file (an error message, a method name, a trace's strings, a
/// plugin's stderr) is shown and never obeyed by the terminal.
enum Console {
    /// Text on stdout, its layout (newlines, tabs) kept, everything else unsafe escaped.
    static func out(_ text: String) {
        print(TerminalText.safe(text))
    }

    /// JSON text on stdout, with the scalars a terminal must not see raw as `\uXXXX`
    /// escapes (the same JSON value).
    static func json(_ value: JSONValue) {
        print(TerminalText.json(value.description))
    }

    /// JSON text already written (a report built as text) on stdout, made safe as
    /// ``json(_:)`` makes a value.
    static func jsonText(_ text: String) {
        print(TerminalText.json(text))
    }

    /// A line on stderr, made safe the same way.
    static func err(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(line) + "\n").utf8))
    }

    /// Bytes on stderr as they are: only for the tool's own control sequences (a
    /// progress line redrawn with `\r` and `ESC [K` on a terminal), never for text
    /// that came from elsewhere.
    static func rawErr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
