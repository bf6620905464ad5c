import Foundation
import HostProtocol

/// The host's diagnostics: stderr, one line each, made safe for a terminal (they quote
/// what the plugin wrote).
enum Log {
    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.oneLine(line) + "\n").utf8))
    }
}
