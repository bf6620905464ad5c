import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// I4 (`--os ios`): no crash the host did not cause. A new webview makes the seed's `load`
/// register again, and the app crashes (the plugin's crash); a late load by the host's
/// policy (`multipleScenes`) crashes too, but that crash is the host's (docs/fuzzing.md).
@Suite("System-level fuzzer --os ios: crashes")
struct IOSCrashFuzzerTests {
    func invariants(_ c: SystemCase, _ profile: Profile) -> Set<Invariant> {
        let outcome = c.run(
            plugin: IOSSystemFuzzerTests.plugin(profile), behaviour: profile == .strict ? .strict : .seed)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        return Set(outcome.violations.map(\.violation.invariant))
    }

    @Test func aSecondWebviewIsI4UnderSeedOnly() async throws {
        let c = SystemCase(
            scenario: IOSSystemFuzzerTests.scenario(runSeconds: 3600), actions: [.start, .webviewCreated])
        #expect(try await onThread { invariants(c, .seed) }.contains(.i4))
        // Strict loads once per process: a new webview registers nothing.
        #expect(try await onThread { !invariants(c, .strict).contains(.i4) })
    }

    @Test func multipleScenesCrashesAreTheHosts() async throws {
        let c = SystemCase(
            scenario: IOSSystemFuzzerTests.scenario(runSeconds: 3600),
            actions: [.start, .policy(.init(multipleScenes: true)), .terminate(.system), .openApp])
        let seen = try await onThread { invariants(c, .seed) }
        #expect(!seen.contains(.i4), "\(seen)")
    }

    @Test func theNewActionReadsBack() throws {
        for action: SystemAction in [.webviewCreated, .policy(.init(multipleScenes: true))] {
            #expect(try SystemAction.read(action.json) == action)
        }
        #expect(SystemAction.webviewCreated.summary.contains("webview"))
    }

    /// The fuzzer finds I4 unaided under the seed profile, shrinks it to the one step that
    /// causes it, and the shrunk case replays identically.
    @Test func fuzzerFindsTheWebviewCrash() async throws {
        let f = IOSSystemFuzzerTests().fuzzer(.seed, runs: 200)
        let findings = try await onThread { try f.run() }
        let crash = try #require(
            findings.first { $0.violation?.invariant == .i4 }, "\(findings.map(\.signature))")
        #expect(crash.systemCase.actions.contains(.webviewCreated))
        #expect(crash.systemCase.actions.count <= 2, "\(crash.systemCase.actions.map(\.summary))")
        let again = crash.systemCase.run(
            plugin: f.configuration.plugin, behaviour: .seed, stopAt: crash.signature,
            answerTimeout: FuzzTestTimeouts.systemAnswer)
        #expect(again.timeline == crash.outcome.timeline, "a system case must replay identically")
    }
}
