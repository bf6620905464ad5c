import Foundation
import HostTestSupport
import Testing

/// `plugin-host replay` with small hand-written traces: a trace that cannot be read or
/// played is a usage error (64) naming its line and why, never a crash; CRLF is read;
/// the version is checked; replay says what the plugin wrote; a plugin that cannot
/// start or misbehaves is exit 2 or 3.
@Suite(
    "replay: traces and plugins", .timeLimit(SanitizerBuild.active ? TimeLimitTrait.Duration.minutes(30) : .minutes(3)))
struct ReplayTraceTests {
    static let findings = PackageRoot.url("docs/findings")

    static let header =
        #"{"kind":"header","version":1,"level":"plugin","profile":"seed","seed":1,"finding":"","#
        + #""pluginArguments":["--profile","seed","--clock","virtual","--events"]}"#
    static let ask = #"{"jsonrpc":"2.0","id":1,"method":"os/pendingTaskRequests"}"#
    static let answer = #"{"id":1,"jsonrpc":"2.0","result":[]}"#

    /// Writes `text` to a temporary file; its path.
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    static func replay(_ path: String, _ extra: [String] = [], env: [String: String] = [:]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await runHost(["replay", path, "--plugin", Binaries.plugin] + extra, env: env)
    }

    /// A system trace with a `together` nested in another (which once crashed replay,
    /// SIGILL), and other malformed traces: exit 64, the file, the line, the reason.
    @Test func malformedTracesAreUsageErrorsWithTheirLine() async throws {
        let system = try String(
            contentsOf: Self.findings.appendingPathComponent("tauri-seed-d1-answered-twice.jsonl"), encoding: .utf8)
        var lines = system.split(separator: "\n").map(String.init)
        let together = try #require(lines.firstIndex { $0.contains(#""action":"together""#) })
        var step = try #require(JSONSerialization.jsonObject(with: Data(lines[together].utf8)) as? [String: Any])
        step["action"] = ["action": "together", "during": step["action"]!, "os": ["action": "expire"], "invoke": "x"]
        lines[together] = String(decoding: try JSONSerialization.data(withJSONObject: step), as: UTF8.self)
        let cases: [(String, String)] = [
            (lines.joined(separator: "\n"), ":\(together + 1): together: \"during\" cannot be another together"),
            (Self.header.replacingOccurrences(of: #""version":1"#, with: #""version":999"#), ":1: trace version 999"),
            (
                Self.header.replacingOccurrences(of: #""version":1"#, with: #""version":"banana""#),
                ":1: trace version \"banana\""
            ),
            (Self.header + "\n\n" + #"{"kind":"step","index":0}"#, ":3: a step line has no \"send\""),
            (Self.header + "\n" + #"{"send":{"jsonrpc":"2.0","id":1}}"#, ":2: \"send\" is not a JSON-RPC request"),
            (Self.header + "\n[1,2]", ":2: a step line must be a JSON object"),
            (Self.header + "\n{", ":2: not JSON"),
            ("", ": empty: no header line"),
        ]
        for (text, message) in cases {
            let path = try Self.file(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let r = try await Self.replay(path)
            #expect(r.status == 64, "\(message): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(path + message), "\(message): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    /// A named pipe is not read (it could block for ever): a usage error.
    @Test func aTraceMustBeARegularFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try await Self.replay(path)
        #expect(r.status == 64 && r.stderr.contains("\(path): not a regular file"), "\(r.stderr)")
    }

    /// A committed trace with CRLF line ends (and a byte order mark) replays as the original.
    @Test func crlfTracesReplay() async throws {
        let text = try String(
            contentsOf: Self.findings.appendingPathComponent("seed-d5-refresh.jsonl"), encoding: .utf8)
        let path = try Self.file("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try await Self.replay(path)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\nidentical: the same timeline, step by step"), "\(r.stdout)")
    }

    /// A trace that recorded no frames for a step the plugin answers is not "identical":
    /// replay shows the frame the plugin wrote; recorded correctly, it is identical.
    @Test func replaySaysWhatThePluginWrote() async throws {
        let empty = try Self.file(Self.header + "\n" + #"{"send":\#(Self.ask),"actual":[]}"#)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let r = try await Self.replay(empty)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("different at step 1 (#1 os/pendingTaskRequests), frame 1:"), "\(r.stdout)")
        #expect(
            r.stdout.contains("recorded: nothing more (the recording has 0 frames for this step, the plugin wrote 1"))
        #expect(r.stdout.contains("now:      \(Self.answer)"), "\(r.stdout)")

        let right = try Self.file(Self.header + "\n" + #"{"send":\#(Self.ask),"actual":[\#(Self.answer)]}"#)
        defer { try? FileManager.default.removeItem(atPath: right) }
        let same = try await Self.replay(right)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("identical: the plugin wrote the same replies as recorded (1 steps, 1 frames)"))
        #expect(same.stdout.contains("model: agrees now"))
    }

    /// Against hostile plugins: exit 2 with the plugin's stderr, or 3 with what it did.
    @Test(arguments: [
        ("start-fail", Int32(2), "cannot start: no licence file"),
        ("silent", 3, "did not answer the case's closing request (os/pendingTaskRequests) within 1 s"),
        ("garbage", 3, "a line that is not JSON"),
        ("flood", 3, "the plugin flooded the host"),
    ])
    func hostilePluginsAreReportedAsSuch(mode: String, status: Int32, message: String) async throws {
        let path = try Self.file(Self.header + "\n" + #"{"send":\#(Self.ask),"actual":[\#(Self.answer)]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tag = TaggedProcesses()
        let r = try await runHost(
            ["replay", path, "--plugin", Binaries.hostilePlugin] + (mode == "silent" ? ["--timeout", "1"] : []),
            env: tag.environment(["HOSTILE_MODE": mode]))
        #expect(r.status == status, "\(mode): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(message), "\(mode): \(r.stderr)")
        #expect(!r.stdout.contains("identical") && !r.stdout.contains("different"), "\(mode): \(r.stdout)")
        #expect(tag.leftBehind().isEmpty)
    }
}
