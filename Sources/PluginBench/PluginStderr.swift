import PluginHost
import Synchronization

/// What a plugin started by a measuring tool (`bench`, `soak`) wrote on stderr. Not shown
/// as it comes (it would drown the tool's own progress, and a plugin may write without
/// end): every line is counted, and the first ones are kept, for the report of a plugin
/// that did not start: at most 100 lines and 64 KiB (well within
/// ``PeerLimits/maxStderrBytes``; a soak's plugin logs each malformed frame it is sent,
/// and keeping 1 MiB of those lines showed as 1.5 MiB of growth in the soak's host).
///
/// ```swift
/// let stderr = PluginStderr()
/// let c = try DirectConnection(plugin: options, stderrLine: stderr.sink)
/// ...
/// if stderr.count > 0 { print(stderr.lines.first!) }
/// ```
package final class PluginStderr: Sendable {
    private let state = Mutex<(lines: [String], bytes: Int, count: Int)>(([], 0, 0))
    private let limit: Int
    private let lineLimit: Int
    private let also: PluginStderr?

    /// Keeps the first lines within `limit` bytes and `lines` lines; every line is also
    /// counted by `also` (a tool's total over the processes it starts).
    package init(limit: Int = 64 << 10, lines: Int = 100, also: PluginStderr? = nil) {
        self.limit = min(limit, PeerLimits.default.maxStderrBytes)
        self.lineLimit = lines
        self.also = also
    }

    /// Where to send the plugin's stderr lines (``PluginProcess``'s `stderrLine`).
    package var sink: @Sendable (String) -> Void { { [self] line in add(line) } }

    /// Counts a line, and keeps it while within the limit.
    package func add(_ line: String) {
        state.withLock { s in
            s.count += 1
            if s.lines.count < lineLimit, s.bytes + line.utf8.count <= limit {
                s.bytes += line.utf8.count
                s.lines.append(line)
            }
        }
        also?.add(line)
    }

    /// The lines kept, in order.
    package var lines: [String] { state.withLock { $0.lines } }

    /// Lines written in all, kept or not.
    package var count: Int { state.withLock { $0.count } }

    /// The first `n` lines kept, indented, for a message; with how many more there were.
    package func excerpt(_ n: Int = 20) -> String {
        let (kept, count) = state.withLock { ($0.lines, $0.count) }
        guard count > 0 else { return "  (nothing on stderr)" }
        var text = kept.prefix(n).map { "  " + $0 }.joined(separator: "\n")
        if count > min(n, kept.count) { text += "\n  (\(OutputMeter.count(count - min(n, kept.count))) more lines)" }
        return text
    }
}
