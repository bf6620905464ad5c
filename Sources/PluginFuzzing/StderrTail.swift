import PluginHost
import Synchronization

/// The last lines a plugin wrote to stderr, kept for a report when it fails: the
/// fuzzers do not forward a plugin's stderr as it comes (a fuzzing run would drown in
/// it), but a plugin that cannot start or that fails says why there.
///
/// Bounded twice: at most ``maxLines`` lines and ``PeerLimits/maxStderrBytes`` bytes;
/// older lines make room and are only counted.
///
/// ```swift
/// let tail = StderrTail()
/// let transport = try launcher.start(stderrLine: tail.append)
/// // ... the plugin fails ...
/// for line in tail.lines { print(line) }
/// ```
public final class StderrTail: Sendable {
    private struct State {
        var lines: [String] = []
        var bytes = 0
        var dropped = 0
    }

    /// The most lines kept (the last ones).
    public static let maxLines = 40

    private let state = Mutex(State())
    private let maxBytes: Int

    /// A tail within `limits.maxStderrBytes`.
    public init(limits: PeerLimits = .default) {
        maxBytes = max(1, limits.maxStderrBytes)
    }

    /// Keeps a line, dropping the oldest past the bounds.
    @Sendable public func append(_ line: String) {
        state.withLock { s in
            s.lines.append(line)
            s.bytes += line.utf8.count
            while s.lines.count > Self.maxLines || (s.bytes > maxBytes && s.lines.count > 1) {
                s.bytes -= s.lines.removeFirst().utf8.count
                s.dropped += 1
            }
        }
    }

    /// The lines kept, oldest first, preceded by a line saying how many earlier ones
    /// were dropped (when some were).
    public var lines: [String] {
        state.withLock { s in
            s.dropped == 0 ? s.lines : ["(\(OutputMeter.count(s.dropped)) earlier lines not kept)"] + s.lines
        }
    }

    /// Forgets every line (a new plugin process).
    public func clear() {
        state.withLock { $0 = State() }
    }
}
