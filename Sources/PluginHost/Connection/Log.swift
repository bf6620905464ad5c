import Foundation

/// The host's diagnostics: stderr, one line each.
enum Log {
    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
