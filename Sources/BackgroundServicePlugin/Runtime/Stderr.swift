import Dispatch
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Diagnostics on stderr, one line each, prefixed with the program's name.
package enum Stderr {
    static func log(_ line: String) {
        writeText("background-service-plugin: \(oneLine(line))\n")
    }

    /// Log lines quote input (method names, ids): its control characters and
    /// bidirectional overrides are escaped (`TerminalText.oneLine`), so that a method
    /// named `"x\nforged line"` cannot split a diagnostic in two or write raw NUL and
    /// escape bytes to the host's log. Input is capped too: a 1 MiB method name makes a
    /// 1 MiB log line otherwise.
    package static func oneLine(_ line: String) -> String { TerminalText.oneLine(line) }

    /// Writes text to stderr as it is.
    static func writeText(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(2, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    if n < 0, errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
