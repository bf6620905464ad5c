import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// The app's states in system cases (issue 23): the alphabet's actions reach the plugin, the
/// user opening the app while both tasks run is the let-go (I5, then I1) with the seed and
/// nothing with strict, and the new invariants hold where the emulation is right.
@Suite("System-level fuzzer: the app's states")
struct AppStatesFuzzTests {
    /// `appStates` on, launches with no randomness, no jetsam.
    static let statesOn: SystemAction = {
        var update = IOSPolicy.Update(
            refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0, refreshEarlyExpiryChance: 0)
        update.appStates = .init(appStates: true, suspendDelaySecs: 5, jetsamChance: 0)
        return .policy(update)
    }()

    func outcome(_ c: SystemCase, _ profile: Profile) -> SystemCase.Outcome {
        let launcher = IOSSystemFuzzerTests.plugin(profile)
        let outcome = c.run(
            plugin: launcher, behaviour: profile == .strict ? .strict : .seed,
            answerTimeout: FuzzTestTimeouts.systemAnswer)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        return outcome
    }

    /// docs/findings.md, "I5 reached by the user": at 900 s iOS launches both tasks into the
    /// suspended app; the user opens it; both are expired (cause `foreground`), the seed's
    /// first handler lets go of the second task, and the watchdog kills the app at 905 s.
    @Test func openingTheAppWhileBothTasksRunIsI5ThenI1() async throws {
        let c = SystemCase(
            scenario: IOSSystemFuzzerTests.scenario(runSeconds: 100_000),
            actions: [Self.statesOn, .start, .advance(.init(seconds: 900)!), .openApp, .advance(.init(seconds: 10)!)])
        let seed = try await onThread { outcome(c, .seed) }
        #expect(seed.violations.map(\.violation.invariant).contains(.i5))
        #expect(seed.violations.contains { $0.violation.invariant == .i1 && $0.step == 4 })
        #expect(seed.timeline[3].contains { $0.contains(#""cause":"foreground""#) })
        let strict = try await onThread { outcome(c, .strict) }
        #expect(strict.violations.isEmpty, "\(strict.violations.map(\.violation.signature))")
    }

    /// The user leaves the app and the app is suspended 5 s later: `os/sendToBackground` reaches
    /// the plugin, the service's timers wait, and neither I8 nor I9 breaks.
    @Test func sendingToBackgroundSuspendsWithoutFindings() async throws {
        let c = SystemCase(
            scenario: IOSSystemFuzzerTests.scenario(runSeconds: 60),
            actions: [
                Self.statesOn, .openApp, .start, .sendToBackground, .advance(.init(seconds: 600)!), .openApp,
                .advance(.init(seconds: 3600)!),
            ])
        for profile in [Profile.seed, .strict] {
            let run = try await onThread { outcome(c, profile) }
            // (The step's reply: the change it made.)
            #expect(
                run.timeline[3].contains { $0.contains(#"ok {"at":0,"state":"background"}"#) }, "\(run.timeline[3])")
            #expect(run.timeline.joined().contains { $0.contains(#""state":"suspended""#) })
            let found = Set(run.violations.map(\.violation.invariant))
            #expect(!found.contains(.i8) && !found.contains(.i9), "\(found)")
        }
    }
}
