import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host demo` run as a binary.
@Suite("plugin-host demo")
struct DemoCommandTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await runHost(arguments)
    }

    @Test func demoPrintsTheDayInOrder() async throws {
        let r = try await run(["demo"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let milestones = [
            "start run 1",
            "#2 startKeepalive",
            "os/taskLaunched",
            "completeBgTask {\"success\":true}",
            "rejected (completed)",
            "start run 2",
            "plugin/safetyTimer {\"deadline\":988,\"state\":\"fired\"}",
            "stop requested by listener of run 2 (resolved)",
            "os/taskExpired",
            "stop requested by listener of run 3 (resolved)",
            "stop requested by user",
            "summary:",
        ]
        var position = r.stdout.startIndex
        for m in milestones {
            guard let found = r.stdout.range(of: m, range: position..<r.stdout.endIndex) else {
                Issue.record("\"\(m)\" missing or out of order")
                return
            }
            position = found.upperBound
        }
        #expect(r.stdout.contains("plugin counters: launched 3, completed 3, expired 1, violations 0"))
    }

    @Test func demoIsDeterministic() async throws {
        let a = try await run(["demo", "--json"])
        let b = try await run(["demo", "--json"])
        #expect(a.status == 0)
        let strip = { (s: String) in s.replacingOccurrences(of: #""pid":\d+"#, with: "", options: .regularExpression) }
        #expect(strip(a.stdout) == strip(b.stdout))
        let parsed = try JSONParser.parse(Array(a.stdout.utf8))
        #expect(parsed["timeline"]?.arrayValue?.isEmpty == false)
    }

    @Test func mermaidStartsWithSequenceDiagram() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).mmd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try await run(["demo", "--mermaid", path, "--profile", "strict"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("sequenceDiagram\n"))
        #expect(text.contains("Rust->>Plugin"))
    }

    @Test(arguments: [["demo", "--bogus"], ["demo", "--profile", "nope"], ["demo", "--work-seconds", "-1"], ["frobnicate"], []])
    func usageErrorsExit64(arguments: [String]) async throws {
        let r = try await run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains("usage: plugin-host"))
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: [["--help"], ["demo", "--help"]])
    func helpExitsZero(arguments: [String]) async throws {
        let r = try await run(arguments)
        #expect(r.status == 0)
        #expect(r.stdout.contains("usage: plugin-host"))
    }
}
