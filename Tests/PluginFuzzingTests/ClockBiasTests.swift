import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// Clock bias (`SystemCase+Deadline.swift`): a step to the next deadline lands exactly on it,
/// resolved when it is played; off, the generator draws the cases it drew before.
@Suite("system fuzzer: clock bias")
struct ClockBiasTests {
    let plugin = PluginLauncher(executable: Binaries.plugin, arguments: ["--profile", "seed"], stderrPrefix: "")

    static let scenario = SystemScenario(
        runs: [
            SystemScenario.Run(
                initSeconds: 0, initFails: false, runSeconds: 3600, outcome: .success, onCancel: .throwError)
        ],
        safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 14_400, earliestMinutes: 15,
        blockingThreads: BlockingPool.tokioDefault, races: RacePlan())

    /// With a refresh task launched at 0 the next deadline is its safety timer (28 s), before the
    /// Rust side's hour of work and the refresh budget (30 s); with nothing due, a minute.
    @Test func aStepGoesToTheNextDeadline() async throws {
        try await onThread {
            let c = SystemCase(
                scenario: Self.scenario, actions: [.start, .launch(.refresh), .advanceToNextDeadline])
            let outcome = c.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
            #expect(outcome.error == nil, "\(outcome.error ?? "")")
            #expect(outcome.simulated == VirtualTime(seconds: 28))
            let fired = outcome.timeline.joined().contains {
                $0.hasPrefix("00:00:28.000") && $0.contains("safetyTimer") && $0.contains("fired")
            }
            #expect(fired, "\(outcome.timeline.joined())")

            let idle = SystemCase(scenario: Self.scenario, actions: [.advanceToNextDeadline])
            let quiet = idle.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
            #expect(quiet.simulated == SystemCase.noDeadlineStep)
        }
    }

    @Test func theActionIsWrittenAndReadBack() throws {
        let action = SystemAction.advanceToNextDeadline
        #expect(action.json == ["action": "advanceToNextDeadline"])
        #expect(try SystemAction.read(action.json) == action)
        #expect(action.isTimePassing && action.summary == "time passes to the next deadline")
    }

    /// Only top-level advances become steps to a deadline, about half of them; the same seed
    /// gives the same case; without the option the level draws what the generator draws.
    @Test func biasTurnsHalfTheAdvancesAndNothingElse() {
        var advances = 0
        var turned = 0
        for seed in UInt64(1)...200 {
            var g = SystemCaseGenerator(seed: seed)
            let drawn = g.actions(max: 30, ios: true, tauri: false)
            var biased = drawn
            g.biasTowardsDeadlines(&biased)
            #expect(biased.count == drawn.count)
            for (a, b) in zip(drawn, biased) where a != b {
                let wasAdvance = if case .advance = a { true } else { false }
                #expect(b == .advanceToNextDeadline && wasAdvance, "\(a) became \(b)")
            }
            advances += drawn.filter { if case .advance = $0 { true } else { false } }.count
            turned += biased.filter { $0 == .advanceToNextDeadline }.count
        }
        #expect(advances > 100 && Double(turned) > 0.35 * Double(advances) && Double(turned) < 0.65 * Double(advances))
        let configuration = SystemFuzzer.Configuration(
            plugin: plugin, behaviour: .seed, seed: 1, runs: 1, seconds: 1, maxSteps: 30, jobs: 1)
        let level = SystemLevel(configuration: configuration)
        var biasedConfiguration = configuration
        biasedConfiguration.clockBias = true
        let off = level.generate(seed: 42)
        #expect(!off.actions.contains(.advanceToNextDeadline))
        let again = level.generate(seed: 42)
        #expect(again.actions == off.actions && again.scenario == off.scenario)
        let on = SystemLevel(configuration: biasedConfiguration).generate(seed: 42)
        #expect(on.actions.count == off.actions.count && on.scenario == off.scenario)
        #expect(on.actions.contains(.advanceToNextDeadline))
        for (a, b) in zip(off.actions, on.actions) where a != b {
            let wasAdvance = if case .advance = a { true } else { false }
            #expect(b == .advanceToNextDeadline && wasAdvance, "\(a) became \(b)")
        }
    }
}
