import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// I5 ("no task is left running without an owner") under `--os ios`: the committed
/// trace's case (`docs/findings/ios-seed-i5-let-go.jsonl`) breaks it with the seed plugin
/// and names the finding; one task at a time does not.
@Suite("System-level fuzzer --os ios: I5")
struct LetGoFuzzTests {
    static let calm = IOSPolicy.Update(
        refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0, refreshEarlyExpiryChance: 0)

    func violations(_ c: SystemCase, _ profile: Profile) -> [Violation] {
        let outcome = c.run(
            plugin: IOSSystemFuzzerTests.plugin(profile), behaviour: profile == .strict ? .strict : .seed)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        return outcome.violations.map(\.violation)
    }

    @Test func completingOneTaskLetsGoOfTheOtherIsI5() async throws {
        let c = SystemCase(
            scenario: IOSSystemFuzzerTests.scenario(runSeconds: 60),
            actions: [.policy(Self.calm), .start, .advance(.init(seconds: 1215)!)])
        let found = try await onThread { violations(c, .seed) }
        #expect(
            found.contains { $0.invariant == .i5 && $0.cause == "completing one task lets go of the other" },
            "\(found.map(\.signature))")
        // One task at a time (the seed's assumption): nothing is let go.
        var one = Self.calm
        one.maxConcurrentTasks = .some(1)
        let single = SystemCase(scenario: c.scenario, actions: [.policy(one), .start, .advance(.init(seconds: 1215)!)])
        #expect(try await onThread { !violations(single, .seed).contains { $0.invariant == .i5 } })
    }
}
