import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// Runs of `plugin-host` against `hostile-plugin`, for the demo and explain tests: each
/// tagged with an environment variable of its own, which the plugin inherits, so that a
/// test can tell whether the run left a plugin process behind.
enum HostileRuns {
    /// Runs `plugin-host arguments` with `HOSTILE_MODE` set (nil: the real plugin) and a
    /// fresh tag; returns the result and the processes still alive with that tag.
    static func run(
        _ arguments: [String], mode: String?, env: [String: String] = [:], input: String? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String, leftBehind: [String]) {
        let tag = TaggedProcesses()
        var environment = tag.environment(env)
        if let mode { environment["HOSTILE_MODE"] = mode }
        let r = try await runProgram(Binaries.host, arguments, env: environment, input: input)
        return (r.status, r.stdout, r.stderr, tag.leftBehind())
    }

    /// `--timeout` for a mode: 1 s where the plugin never answers (so that the test ends
    /// quickly), 120 s elsewhere (a hang-catcher: a flood is stopped by its bound, not by the
    /// clock, however loaded the machine).
    static func timeout(_ mode: String) -> String {
        ["silent", "unknown-ids", "fork-holds-stdout"].contains(mode) ? "1" : "120"
    }

    /// `--plugin PATH` for the hostile plugin.
    static var plugin: [String] { ["--plugin", Binaries.hostilePlugin] }

    /// Whether `text` holds a scalar a terminal would obey: ESC, BEL, C1 (CSI), a bidi override.
    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" && $0 != "\t" }
    }

    /// The last line of `text`.
    static func lastLine(_ text: String) -> String {
        String(text.split(separator: "\n").last ?? "")
    }
}
