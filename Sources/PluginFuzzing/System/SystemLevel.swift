import HostProtocol
import PluginHost

/// The system level of the fuzzing loop: scenarios and actions from
/// ``SystemCaseGenerator``, each played in a simulation on the job's one plugin.
struct SystemLevel: FuzzLevel {
    let configuration: SystemFuzzer.Configuration

    var seedSalt: UInt64 { 0xD1B5_4A32_D192_ED03 }

    /// Never fails as a whole: a plugin that cannot start fails each case instead.
    func makeRunner() -> SystemCaseRunner {
        SystemCaseRunner(launcher: configuration.plugin, answerTimeout: configuration.answerTimeout)
    }

    func generate(seed: UInt64) -> SystemCase {
        var g = SystemCaseGenerator(seed: seed)
        var scenario = g.scenario()
        let ios = configuration.os == .ios
        if ios { g.ios(&scenario) }
        let tauri = configuration.dispatch == .tauri
        return SystemCase(scenario: scenario, actions: g.actions(max: configuration.maxSteps, ios: ios, tauri: tauri))
    }

    func run(_ c: SystemCase, on runner: inout SystemCaseRunner) -> SystemCase.Outcome {
        c.run(on: runner, behaviour: configuration.behaviour, dispatch: configuration.dispatch)
    }

    func steps(_ c: SystemCase, _ outcome: SystemCase.Outcome) -> Int { outcome.timeline.count }

    func simulatedSeconds(_ outcome: SystemCase.Outcome) -> Double { outcome.simulated.seconds }

    func signatures(_ outcome: SystemCase.Outcome) -> [String] { outcome.signatures }

    /// A run that could not be completed leaves the plugin in an unknown state: a new
    /// one. (An invariant broken is the system's behaviour; the reset before the next
    /// case clears it.)
    func recover(_ runner: inout SystemCaseRunner, after outcome: SystemCase.Outcome) {
        if outcome.error != nil { runner.restart() }
    }

    func close(_ runner: SystemCaseRunner) { runner.close() }

    /// Shrinks with ``SystemShrinker`` on the job's plugin (a new one after a run
    /// that could not be completed).
    func shrink(
        _ original: SystemCase, signature: String, caseSeed seed: UInt64, on runner: inout SystemCaseRunner
    ) -> SystemFuzzer.Finding {
        let (behaviour, dispatch) = (configuration.behaviour, configuration.dispatch)
        let (shrunk, outcome, attempts) = SystemShrinker(signature: signature).shrink(original) { c in
            let outcome = c.run(on: runner, behaviour: behaviour, stopAt: signature, dispatch: dispatch)
            if outcome.error != nil { runner.restart() }
            return outcome
        }
        return SystemFuzzer.Finding(
            signature: signature, caseSeed: seed, originalSteps: original.actions.count, systemCase: shrunk,
            outcome: outcome, shrinkAttempts: attempts, dispatch: dispatch)
    }
}
