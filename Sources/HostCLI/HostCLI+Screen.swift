import Foundation
import HostProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Lines for people on stdout, through ``Console``: when stdout is a terminal each line
/// is fitted to its width (cut with `…`), so that a long JSON payload does not wrap over
/// the next lines; when it is not (a file, a pipe, a test), lines are never cut.
///
/// The width is the terminal's (`TIOCGWINSZ`), else `COLUMNS`, else 80.
extension HostCLI {
    enum Screen {
        /// The width lines are fitted to; nil when stdout is not a terminal.
        static let width: Int? = {
            guard isatty(1) != 0 else { return nil }
            var size = winsize()
            if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
            if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
                return columns
            }
            return 80
        }()

        /// Prints `text` (one line or several), each line made safe and fitted.
        static func out(_ text: String) {
            guard let width else {
                Console.out(text)
                return
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            Console.out(lines.map { fit(TerminalText.safe(String($0)), width: width) }.joined(separator: "\n"))
        }

        /// `line` cut to `width` columns (one per character; a tab counts up to the next
        /// multiple of 8), its end replaced by `…` when cut.
        static func fit(_ line: String, width: Int) -> String {
            guard width > 1 else { return line }
            var column = 0
            var cut = line.startIndex  // the end of the longest start that leaves room for `…`
            for index in line.indices {
                let next = line[index] == "\t" ? (column / 8 + 1) * 8 : column + 1
                if next > width { return String(line[..<cut]) + "…" }
                if next < width { cut = line.index(after: index) }
                column = next
            }
            return line
        }
    }
}
