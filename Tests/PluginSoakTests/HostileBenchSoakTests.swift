import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host bench` and `plugin-host soak` against every misbehaviour of
/// `hostile-plugin`: each ends within seconds, with the documented exit status (2 the
/// plugin did not start, 3 it broke the transport), a message that names what was
/// awaited or shows what the plugin wrote (escaped), and no process left behind.
@Suite("Hostile peers: bench and soak")
struct HostileBenchSoakTests {
    struct Case: Sendable, CustomStringConvertible {
        let mode: String
        let status: Int32
        /// What stderr must say.
        let says: [String]
        var env: [String: String] = [:]
        var description: String { mode }
    }

    /// The commands' `--timeout`: short, for the silent plugins; long enough for a
    /// sanitizer build to start one.
    static let timeout = SanitizerBuild.active ? "20" : "2"
    /// The modes in which the plugin falls silent, and `--timeout` ends the run.
    static let silent: Set = ["silent", "slow-start", "fork-holds-stdout"]

    static let benchCases: [Case] = [
        Case(mode: "silent", status: 3, says: ["the Swift echo's first line got no answer within 2"]),
        Case(mode: "slow-start", status: 3, says: ["got no answer within"], env: ["HOSTILE_SECONDS": "60"]),
        Case(mode: "start-fail", status: 2, says: ["before answering its first request", "no licence file"]),
        Case(mode: "exit-mid-frame", status: 3, says: ["(waiting for Swift echo round trips", "exited with status 3"]),
        Case(mode: "answer-twice", status: 3, says: ["a second echo of a line answered already"]),
        Case(mode: "unknown-ids", status: 3, says: ["expected the answer to the barrier", "unknown-1"]),
        Case(mode: "flood", status: 3, says: ["expected the echo of the line sent", "os/taskLaunched"]),
        Case(mode: "flood-at-start", status: 3, says: ["os/taskLaunched"]),
        Case(mode: "huge-line", status: 3, says: ["frame exceeds the limit of 16777216 bytes"]),
        Case(mode: "fork-holds-stdout", status: 3, says: ["round trips, block 1 of 20 got no answer within"]),
        Case(mode: "garbage", status: 3, says: [#"this is not JSON \u{1b}[31m"#]),
        Case(mode: "escapes", status: 3, says: ["]0;pwned", #"\u{202e}evil"#]),
        Case(mode: "stderr-flood", status: 0, says: ["line(s) on stderr, not shown"]),
    ]

    static let soakCases: [Case] = [
        Case(mode: "silent", status: 3, says: ["plugin/state got no answer within"]),
        Case(mode: "slow-start", status: 3, says: ["got no answer within"], env: ["HOSTILE_SECONDS": "60"]),
        Case(mode: "start-fail", status: 2, says: ["did not start", "no licence file"]),
        Case(mode: "exit-mid-frame", status: 3, says: ["broke the transport", "in the middle of a frame"]),
        Case(mode: "answer-twice", status: 3, says: ["broke the transport", "which no call is waiting for"]),
        Case(mode: "unknown-ids", status: 3, says: ["broke the transport", "unknown-1"]),
        Case(mode: "flood", status: 3, says: ["flooded its output"]),
        Case(mode: "flood-at-start", status: 3, says: ["flooded its output"]),
        Case(mode: "huge-line", status: 3, says: ["frame exceeds the limit of 16777216 bytes"]),
        Case(mode: "fork-holds-stdout", status: 3, says: ["got no answer within"]),
        Case(mode: "garbage", status: 3, says: ["broke the transport", "unreadable output"]),
        Case(mode: "escapes", status: 0, says: []),
        Case(mode: "stderr-flood", status: 0, says: []),
    ]

    func run(_ arguments: [String], _ c: Case) async throws {
        let tag = TaggedProcesses()
        let env = tag.environment(c.env.merging(["HOSTILE_MODE": c.mode]) { a, _ in a })
        // The short timeout is for the plugins that fall silent; any other run must not be
        // cut short by a loaded machine.
        let timeout = Self.silent.contains(c.mode) ? Self.timeout : "60"
        let r = try await runHost(arguments + ["--timeout", timeout, "--plugin", Binaries.hostilePlugin], env: env)
        #expect(r.status == c.status, "stderr: \(r.stderr.suffix(2000))")
        for text in c.says { #expect(r.stderr.contains(text), "no \"\(text)\" in: \(r.stderr.suffix(2000))") }
        let raw = (r.stdout + r.stderr).unicodeScalars.filter { TerminalText.isUnsafe($0) && $0 != "\n" }
        #expect(raw.isEmpty, "unescaped: \(raw.map { String($0.value, radix: 16) })")
        #expect(tag.leftBehind().isEmpty, "processes left behind: \(tag.leftBehind())")
    }

    @Test(arguments: benchCases)
    func bench(_ c: Case) async throws {
        try await run(["bench", "--quick", "--fuzz-seconds", "0", "--system-seconds", "0"], c)
    }

    @Test(arguments: soakCases)
    func soak(_ c: Case) async throws {
        try await run(
            [
                "soak", "--invokes", "300", "--fuzz-cases", "30", "--rounds", "2", "--warmup-rounds", "1",
                "--fault-trials", "0", "--growth-limit-kb", "100000000",
            ], c)
    }
}
