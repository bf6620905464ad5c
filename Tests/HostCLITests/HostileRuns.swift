import Foundation
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
    ) async throws -> (status: Int32, stdout: String, stderr: String, leftBehind: [Int32]) {
        let tag = UUID().uuidString
        var environment = env
        environment["PLUGIN_HOST_TEST_TAG"] = tag
        if let mode { environment["HOSTILE_MODE"] = mode }
        let r = try await runProgram(Binaries.host, arguments, env: environment, input: input)
        return (r.status, r.stdout, r.stderr, alive(tagged: tag))
    }

    /// `--timeout` for a mode: 1 s where the plugin never answers (so that the test ends
    /// quickly), 120 s elsewhere (a hang-catcher: a flood is stopped by its bound, not by the
    /// clock, however loaded the machine).
    static func timeout(_ mode: String) -> String {
        ["silent", "unknown-ids", "fork-holds-stdout"].contains(mode) ? "1" : "120"
    }

    /// `--plugin PATH` for the hostile plugin.
    static var plugin: [String] { ["--plugin", Binaries.hostilePlugin] }

    /// Processes (not zombies) whose environment holds `PLUGIN_HOST_TEST_TAG=tag`.
    static func alive(tagged tag: String) -> [Int32] {
        let needle = Array("PLUGIN_HOST_TEST_TAG=\(tag)".utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = status.lastIndex(of: ")"),
                status[status.index(close, offsetBy: 2)] != "Z",
                let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return environ.split(separator: 0).contains { Array($0) == needle }
        }
    }

    /// Whether `text` holds a scalar a terminal would obey: ESC, BEL, C1 (CSI), a bidi override.
    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
                || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }
    }

    /// The last line of `text`.
    static func lastLine(_ text: String) -> String {
        String(text.split(separator: "\n").last ?? "")
    }
}
