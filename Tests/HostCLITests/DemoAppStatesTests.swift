import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host demo --os ios`: the day's sixth part, the app's states (issue 23; the default,
/// also asked for by `--app-states`), run as a binary. Its notes are held to the plugin's events in the same run.
@Suite("plugin-host demo --os ios --app-states")
struct DemoAppStatesTests {
    @Test func showsOpenedLeftSuspendedWokenAndExpiredByOpening() async throws {
        let r = try await runHost(["demo", "--os", "ios", "--app-states", "--full"])
        #expect(r.status == 1, "stderr: \(r.stderr)")  // the fifth part's let-go, as without the option
        let milestones = [
            "From now on iOS tracks the app's states",
            "os/setPolicy {\"appStates\":true",
            "os/openApp",
            "The user opens the app: it is in the foreground",
            "rust            start run 1",
            "os/appStateChanged {\"at\":8404,\"state\":\"background\"}",
            "The user leaves the app (os/sendToBackground): it is in the background",
            "os/appStateChanged {\"at\":8409,\"state\":\"suspended\"}",
            "iOS suspended the app 5 s after the user left it",
            "os/appStateChanged {\"at\":9244,\"identifier\":\"com.example.app.bg-refresh\",\"state\":\"background\"}",
            "os/taskLaunched {\"at\":9244,\"identifier\":\"com.example.app.bg-refresh\"",
            "iOS woke the suspended app for the refresh task at 02:34:04.000",
            "os/openApp",
            "os/appStateChanged {\"at\":9254,\"state\":\"foreground\"}",
            "os/taskExpired {\"at\":9254,\"cause\":\"foreground\",\"identifier\":\"com.example.app.bg-refresh\"}",
            "The user opens the app 10 s into the refresh task: iOS expired the refresh task 10 s after its "
                + "launch (foreground); the cancel listener resolved",
        ]
        if let missing = firstMissing(milestones, inOrderIn: r.stdout) {
            Issue.record("\"\(missing)\" missing or out of order in:\n\(r.stdout.suffix(6000))")
        }
    }

    @Test func strictHoldsEveryRule() async throws {
        let r = try await runHost(["demo", "--os", "ios", "--app-states", "--profile", "strict", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let parsed = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(parsed["verdict"]?["held"] == .bool(true))
        let events = parsed["timeline"]?.arrayValue?.compactMap { $0["message"] } ?? []
        let states = events.filter { $0["method"]?.stringValue == "os/appStateChanged" }
            .compactMap { $0["params"]?["state"]?.stringValue }
        // The app still runs after the fifth part (strict lets go of no task), so opening it
        // brings it to the foreground rather than starting a process.
        #expect(states == ["foreground", "background", "suspended", "background", "foreground"], "\(states)")
        let causes = events.filter { $0["method"]?.stringValue == "os/taskExpired" }
            .compactMap { $0["params"]?["cause"]?.stringValue }
        #expect(causes.last == "foreground", "\(causes)")
    }

    /// The sixth part is the default (`--app-states` is kept for older command lines); `--legacy`
    /// leaves it out.
    @Test func theSixthPartIsTheDefaultAndLegacyLeavesItOut() async throws {
        let plain = try await runHost(["demo", "--os", "ios"])
        #expect(plain.stdout.contains("From now on iOS tracks the app's states"))
        let legacy = try await runHost(["demo", "--os", "ios", "--legacy"])
        #expect(legacy.status == 1, "stderr: \(legacy.stderr)")  // the fifth part's let-go
        #expect(!legacy.stdout.contains("From now on iOS tracks the app's states"))
        #expect(!legacy.stdout.contains("os/appStateChanged"))
    }

    @Test(arguments: ["--app-states", "--legacy"])
    func needsOSIOS(flag: String) async throws {
        let r = try await runHost(["demo", flag])
        #expect(r.status == 64)
        #expect(r.stderr.contains("plugin-host demo: \(flag) needs --os ios"), "\(r.stderr)")
    }

    @Test func legacyAndTheSixthPartContradict() async throws {
        let r = try await runHost(["demo", "--os", "ios", "--legacy", "--app-states"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--legacy leaves out the sixth part that --app-states asks for"), "\(r.stderr)")
    }
}
