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
        if let missing = firstMissing(milestones, inOrderIn: r.stdout) {
            Issue.record("\"\(missing)\" missing or out of order")
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

    @Test(arguments: [
        ["demo", "--bogus"], ["demo", "--profile", "nope"], ["demo", "--work-seconds", "-1"], ["frobnicate"], [],
    ])
    func usageErrorsExit64(arguments: [String]) async throws {
        let r = try await run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains("see `plugin-host"))
        #expect(!r.stderr.contains("usage:"), "one line and where the usage is, not the whole usage")
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: [["--help"], ["demo", "--help"]])
    func helpExitsZero(arguments: [String]) async throws {
        let r = try await run(arguments)
        #expect(r.status == 0)
        #expect(r.stdout.contains("usage: plugin-host"))
    }
}

/// `plugin-host demo --os ios`: the second scripted day.
@Suite("plugin-host demo --os ios")
struct IOSDemoCommandTests {
    @Test func theDayHasItsFourHappenings() async throws {
        let r = try await runHost(["demo", "--os", "ios"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let milestones = [
            // 1. A refresh expired early (a budget of 2 to 5 s), the service stopped by its listener.
            "os/taskLaunched {\"at\":900,\"identifier\":\"com.example.app.bg-refresh\"",
            "os/taskExpired {\"at\":903.332,\"cause\":\"budget\"",
            "stop requested by listener of run 1 (resolved)",
            // 2. A processing task cut off when power is removed.
            "os/taskLaunched {\"at\":1860,\"identifier\":\"com.example.app.bg-processing\"",
            "os/taskExpired {\"at\":2160,\"cause\":\"externalPowerLost\"",
            "stop requested by listener of run 2 (resolved)",
            // 3. A force-quit: nothing launches until the user opens the app.
            "os/appTerminated {\"at\":2230,\"reason\":\"forceQuit\"}",
            "app process 1 ended (forceQuit): its Rust side is gone with the service running",
            "os/launchDeferred",
            "\"factor\":\"forceQuit\"",
            "os/appLaunched {\"at\":5830,\"cause\":\"user\"}",
            "os/taskLaunched {\"at\":5830",
            // 4. A cold start into the background: a fresh, idle Rust side.
            "os/appTerminated {\"at\":5868,\"reason\":\"system\"}",
            "os/appLaunched {\"at\":6758,\"cause\":\"backgroundTask\"",
            "app process 3 starts (cold start into the background for com.example.app.bg-refresh)",
            "plugin/safetyTimer {\"deadline\":6786,\"state\":\"fired\"}",
            "app processes: 3",
            "3: started at 01:52:38.000 (backgroundTask), running at the end; no service run in it",
        ]
        if let missing = firstMissing(milestones, inOrderIn: r.stdout) {
            Issue.record("\"\(missing)\" missing or out of order")
        }
    }

    @Test func restartAtLaunchMeetsTheTask() async throws {
        let r = try await runHost(["demo", "--os", "ios", "--restart-at-launch"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("the app's code starts the service at launch"))
        #expect(r.stdout.contains("3: started at 01:52:10.000 (backgroundTask), running at the end\n"))
    }

    @Test func jsonAndMermaid() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).mmd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try await runHost(["demo", "--os", "ios", "--json", "--mermaid", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let parsed = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(parsed["os"]?.stringValue == "ios")
        let texts = parsed["timeline"]?.arrayValue?.compactMap { $0["message"]?["method"]?.stringValue } ?? []
        #expect(texts.contains("os/appLaunched") && texts.contains("os/appTerminated"))
        let diagram = try String(contentsOfFile: path, encoding: .utf8)
        #expect(diagram.contains("title plugin-host demo (seed, --os ios)"))
        #expect(diagram.contains("os/appLaunched"))
    }

    @Test(arguments: [
        ["--os", "android"], ["--os-seed", "3"], ["--restart-at-launch"], ["--os", "ios", "--work-seconds", "5"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let r = try await runHost(["demo"] + arguments)
        #expect(r.status == 64)
    }
}
