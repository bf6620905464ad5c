import Foundation

/// Lines from a file or standard input (`plugin-host explain --script`).
struct LineSource {
    private let handle: UnsafeMutablePointer<FILE>
    /// Whether the lines come from a terminal (interactive).
    let isTerminal: Bool
    /// Whether it opened the file itself (and closes it).
    let owned: Bool

    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    static func open(_ path: String) -> Result<LineSource, OpenError> {
        if path == "-" { return .success(LineSource(handle: fdopen(0, "r"), isTerminal: isatty(0) != 0, owned: false)) }
        guard let file = fopen(path, "r") else {
            return .failure(OpenError(description: "--script: cannot read \(path)"))
        }
        return .success(LineSource(handle: file, isTerminal: false, owned: true))
    }

    /// Closes a file it opened (standard input is left open).
    func close() {
        if owned { fclose(handle) }
    }

    /// The next line without its line end (`\n`, `\r\n` or a stray `\r`); nil at the end.
    func next() -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        defer { free(buffer) }
        let n = getline(&buffer, &size, handle)
        guard n >= 0, let buffer else { return nil }
        // By scalars: in a String, "\r\n" is one Character, which `hasSuffix("\n")` does not see.
        var scalars = String(cString: buffer).unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
