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
        let r = try await run(["demo", "--full"])
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
        #expect(
            r.stdout.hasSuffix(
                "\nverdict: every rule held (no protocol error, no answer twice or to an unknown id; "
                    + "violations 0; 3 tasks launched, each completed once; the plugin exited 0)\n"))
    }

    /// The brief view (the default) keeps the story and drops the wire: no request lines,
    /// no params, every note, and the verdict last.
    @Test func theBriefViewTellsTheStory() async throws {
        let brief = try await run(["demo"])
        let full = try await run(["demo", "--full"])
        #expect(brief.status == 0, "stderr: \(brief.stderr)")
        let lines = brief.stdout.split(separator: "\n")
        #expect(lines.count < full.stdout.split(separator: "\n").count / 2)
        #expect(!brief.stdout.contains("→ plugin"))
        #expect(!brief.stdout.contains("os/requestSubmitted"))
        #expect(brief.stdout.contains("plugin event    os/taskLaunched com.example.app.bg-refresh (refresh)"))
        #expect(brief.stdout.contains("plugin event    plugin/safetyTimer fired"))
        let notes = { (s: String) in s.split(separator: "\n").filter { $0.contains("  --  ") } }
        #expect(notes(brief.stdout) == notes(full.stdout))
        #expect(lines.last?.hasPrefix("verdict: every rule held") == true)
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

    /// On a terminal (a pty from `script`) every line fits its width; elsewhere lines are never cut.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func linesFitTheTerminal() async throws {
        let command = "COLUMNS=50 '\(Binaries.host)' demo"
        let tty = try await runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(tty.status == 0, "\(tty.stdout.suffix(500))")
        let lines = tty.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count > 20)
        #expect(lines.allSatisfy { $0.count <= 50 }, "\(lines.filter { $0.count > 50 })")
        #expect(lines.contains { $0.hasSuffix("…") })
        let pipe = try await runHost(["demo"])
        #expect(pipe.stdout.split(separator: "\n").contains { $0.count > 120 })
        #expect(!pipe.stdout.contains("…"))
    }
}

/// `plugin-host demo --os ios`: the second scripted day.
@Suite("plugin-host demo --os ios")
struct IOSDemoCommandTests {
    @Test func theDayHasItsFiveHappenings() async throws {
        // (--legacy: the five parts alone, so that the summary's processes are theirs.)
        let r = try await runHost(["demo", "--os", "ios", "--legacy", "--full"])
        // The fifth breaks a rule under the seed profile: the verdict says so.
        #expect(r.status == 1, "stderr: \(r.stderr)")
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
            // 5. Two tasks at once: the seed lets go of the processing task; the watchdog kills the app.
            "os/taskLaunched {\"at\":7706,\"identifier\":\"com.example.app.bg-refresh\"",
            "os/taskLaunched {\"at\":7706,\"identifier\":\"com.example.app.bg-processing\"",
            "os/taskCompleted {\"at\":7734,\"identifier\":\"com.example.app.bg-refresh\"",
            "os/taskExpired {\"at\":8306,\"cause\":\"budget\",\"identifier\":\"com.example.app.bg-processing\"",
            "os/appTerminated {\"at\":8311,\"identifier\":\"com.example.app.bg-processing\",\"reason\":\"watchdog\"}",
            "app processes: 3",
            "3: started at 01:52:38.000 (backgroundTask), ended at 02:18:31.000 (watchdog)",
            "verdict: rules broken: violations, exactly-once (exit 1)",
        ]
        if let missing = firstMissing(milestones, inOrderIn: r.stdout) {
            Issue.record("\"\(missing)\" missing or out of order")
        }
    }

    @Test func restartAtLaunchMeetsTheTask() async throws {
        let r = try await runHost(["demo", "--os", "ios", "--restart-at-launch"])
        #expect(r.status == 1, "stderr: \(r.stderr)")  // the fifth happening's let-go
        #expect(r.stdout.contains("the app's code starts the service at launch"))
        #expect(r.stdout.contains("3: started at 01:52:10.000 (backgroundTask), ended at 02:18:31.000 (watchdog)\n"))
    }

    @Test func jsonAndMermaid() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).mmd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try await runHost(["demo", "--os", "ios", "--profile", "strict", "--json", "--mermaid", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let parsed = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(parsed["os"]?.stringValue == "ios")
        #expect(parsed["verdict"]?["held"] == .bool(true))
        #expect(parsed["verdict"]?["status"]?.doubleValue == 0)
        let texts = parsed["timeline"]?.arrayValue?.compactMap { $0["message"]?["method"]?.stringValue } ?? []
        #expect(texts.contains("os/appLaunched") && texts.contains("os/appTerminated"))
        let diagram = try String(contentsOfFile: path, encoding: .utf8)
        #expect(diagram.contains("title plugin-host demo (strict, --os ios)"))
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
