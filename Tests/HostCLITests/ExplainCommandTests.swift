import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host explain` run as a binary on a script.
@Suite("plugin-host explain")
struct ExplainCommandTests {
    func run(script: String, _ extra: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("explain-\(UUID().uuidString).txt").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await runHost(["explain", "--script", path] + extra)
    }

    static let lowPowerSession = """
        # start, then Low Power Mode, then ten minutes
        {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
        {"jsonrpc":"2.0","id":"w","method":"waitForCancel"}
        {"jsonrpc":"2.0","id":3,"method":"os/setConditions","params":{"lowPowerMode":true}}
        {"jsonrpc":"2.0","id":4,"method":"os/advanceTime","params":{"seconds":600}}
        explain
        {"jsonrpc":"2.0","id":5,"method":"os/terminate","params":{"reason":"forceQuit"}}
        """

    @Test func explainsEveryIdentifierAtEachPointAndAtTheEnd() async throws {
        let r = try await run(script: Self.lowPowerSession)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let milestones = [
            "← #1 ok null",
            "at 00:10:00:",
            "com.example.app.bg-refresh: pending, not running because:",
            "- Low Power Mode is on",
            "- earliestBeginDate in 300 s",
            "next possible: not by the clock alone",
            "com.example.app.bg-processing: pending",
            "← event os/appTerminated",
            "← #\"w\" error -32000 invoke rejected: terminated",
            "com.example.app.bg-refresh: pending, not running because:",
            "- the app was force-quit",
            "- Low Power Mode is on",
        ]
        if let missing = firstMissing(milestones, inOrderIn: r.stdout) {
            Issue.record("\"\(missing)\" missing or out of order in:\n\(r.stdout)")
        }
    }

    @Test func jsonIsOneAnswerPerPointWithFactorsInOrder() async throws {
        let r = try await run(script: Self.lowPowerSession, ["--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let last = try JSONParser.parse(Array(lines[1].utf8))
        #expect(last["now"]?.doubleValue == 600)
        let refresh = last["explanations"]?.arrayValue?.first
        #expect(refresh?["identifier"]?.stringValue == "com.example.app.bg-refresh")
        let factors = refresh?["reasons"]?.arrayValue?.compactMap { $0["factor"]?.stringValue }
        #expect(factors == ["forceQuit", "lowPowerMode", "earliestBeginDate", "systemDelay"])
        #expect(refresh?["nextPossibleAt"]?.isNull == true)
    }

    @Test func clockOnlyFactorsGiveATime() async throws {
        let script = """
            {"jsonrpc":"2.0","id":1,"method":"os/setPolicy","params":{"refreshDelayMaxSecs":0}}
            {"jsonrpc":"2.0","id":2,"method":"startKeepalive"}
            explain com.example.app.bg-refresh
            """
        let r = try await run(script: script, ["--quiet"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("next possible: 00:15:00 (t=900 s, in 900 s)"), "\(r.stdout)")
        #expect(!r.stdout.contains("← "))
    }

    @Test func notPendingBeforeAnySubmission() async throws {
        let r = try await run(script: "", ["--quiet"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("com.example.app.bg-refresh: not pending (nothing submitted)"))
    }

    @Test func badLinesAreReportedAndTheSessionGoesOn() async throws {
        let script = """
            not json
            [1,2]
            {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
            """
        let r = try await run(script: script)
        #expect(r.status == 1)
        #expect(r.stderr.contains("line 1: not JSON"))
        #expect(r.stderr.contains("line 2: not a JSON-RPC request"))
        #expect(r.stdout.contains("← #1 ok null"))
        #expect(r.stdout.contains("earliestBeginDate in 900 s"))
    }

    /// A script that ends the session with `shutdown` has nothing left to explain: no
    /// final report, exit 0.
    @Test func aSessionEndedByShutdownExitsZero() async throws {
        let script = """
            {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
            explain com.example.app.bg-refresh
            {"jsonrpc":"2.0","id":2,"method":"shutdown"}
            """
        let r = try await run(script: script)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("exited"), "\(r.stderr)")
        #expect(r.stdout.contains("← #2 ok null"))
        #expect(r.stdout.components(separatedBy: "com.example.app.bg-refresh: pending").count == 2, "one report")
    }

    /// A line after the shutdown finds no plugin: reported, exit 1.
    @Test func aLineAfterShutdownFails() async throws {
        let script = """
            {"jsonrpc":"2.0","id":1,"method":"shutdown"}
            {"jsonrpc":"2.0","id":2,"method":"startKeepalive"}
            """
        let r = try await run(script: script, ["--quiet"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("line 2: startKeepalive:"), "\(r.stderr)")
    }

    @Test(arguments: [
        ["--bogus"], ["--profile", "nope"], ["--os-seed", "-1"], ["extra"], ["--script", "/nonexistent/x"],
    ])
    func usageErrorsExit64(arguments: [String]) async throws {
        let r = try await runHost(["explain"] + arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("plugin-host explain: "))
        #expect(r.stderr.hasSuffix("see `plugin-host explain --help`\n"))
    }

    @Test func helpDocumentsTheSession() async throws {
        let r = try await runHost(["explain", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--script FILE|-"))
        #expect(r.stdout.contains("explain ID"))
        #expect(r.stdout.contains("Batches (JSON arrays) are not accepted"))
    }
}
