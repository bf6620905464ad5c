import HostProtocol
import PluginHost

/// The system level of the fuzzing loop: scenarios and actions from
/// ``SystemCaseGenerator``, each played in a simulation on the job's one plugin.
struct SystemLevel: FuzzLevel {
    let configuration: SystemFuzzer.Configuration

    var seedSalt: UInt64 { 0xD1B5_4A32_D192_ED03 }

    /// Never fails as a whole: a plugin that cannot start fails the first case instead.
    func makeRunner(deadline: FuzzDeadline) -> SystemCaseRunner {
        SystemCaseRunner(launcher: configuration.plugin, answerTimeout: configuration.answerTimeout, deadline: deadline)
    }

    /// `--os ios`: the cases draw from the ios alphabet.
    private var ios: Bool { configuration.os == .ios }
    /// `--dispatch tauri`: some actions are OS events at a host invoke's instant.
    private var tauri: Bool { configuration.dispatch == .tauri }

    func generate(seed: UInt64) -> SystemCase {
        var g = SystemCaseGenerator(seed: seed)
        var scenario = g.scenario()
        if ios { g.ios(&scenario) }
        var actions: [SystemAction]
        if configuration.swarm {
            let kinds = g.swarmKinds()
            actions = g.swarmActions(max: configuration.maxSteps, ios: ios, tauri: tauri, kinds: kinds)
        } else {
            actions = g.actions(max: configuration.maxSteps, ios: ios, tauri: tauri)
        }
        if configuration.clockBias { g.biasTowardsDeadlines(&actions) }
        return SystemCase(scenario: scenario, actions: actions)
    }

    /// Guided search (``SystemFuzzer/Configuration/guided``): each action's abstract transition.
    func coverage(_ outcome: SystemCase.Outcome) -> [UInt64]? { configuration.guided ? outcome.coverage : nil }

    func mutate(_ parent: SystemCase, seed: UInt64) -> SystemCase {
        var g = SystemCaseGenerator(seed: seed)
        return g.mutate(parent, max: configuration.maxSteps, ios: ios, tauri: tauri, clockBias: configuration.clockBias)
    }

    func prefix(_ c: SystemCase, steps: Int) -> SystemCase {
        SystemCase(scenario: c.scenario, actions: Array(c.actions.prefix(steps)))
    }

    func run(_ c: SystemCase, on runner: inout SystemCaseRunner) -> SystemCase.Outcome {
        c.run(
            on: runner, behaviour: configuration.behaviour, dispatch: configuration.dispatch,
            coverage: configuration.guided)
    }

    func steps(_ c: SystemCase, _ outcome: SystemCase.Outcome) -> Int { outcome.steps }

    func simulatedSeconds(_ outcome: SystemCase.Outcome) -> Double { outcome.simulated.seconds }

    func signatures(_ outcome: SystemCase.Outcome) -> [String] { outcome.signatures }

    /// A run that could not be completed: the plugin did not start, or broke the
    /// transport (hung, ended, flooded, wrote junk), or the run's time ran out on it. The
    /// plugin is stopped first, so that its stderr has been read to the end.
    func failure(_ outcome: SystemCase.Outcome, on runner: SystemCaseRunner) -> PluginFailure? {
        guard let error = outcome.error else { return nil }
        runner.restart()
        return PluginFailure(
            kind: outcome.notStarted ? .didNotStart : .misbehaved,
            reason: outcome.notStarted ? "the plugin did not start: \(error)" : error, stderr: runner.stderrTail.lines)
    }

    /// A run that could not be completed leaves the plugin in an unknown state: a new
    /// one. (An invariant broken is the system's behaviour; the reset before the next
    /// case clears it.)
    func recover(_ runner: inout SystemCaseRunner, after outcome: SystemCase.Outcome) {
        if outcome.error != nil { runner.restart() }
    }

    func close(_ runner: SystemCaseRunner) { runner.close() }

    /// Shrinks with ``SystemShrinker`` on the job's plugin; no attempt starts once `stop`
    /// says so, and the plugin failing on an attempt ends the shrinking (thrown).
    func shrink(
        _ original: SystemCase, signature: String, caseSeed seed: UInt64, on runner: inout SystemCaseRunner,
        stop: @escaping @Sendable () -> Bool
    ) throws(PluginFailure) -> SystemFuzzer.Finding {
        let (behaviour, dispatch) = (configuration.behaviour, configuration.dispatch)
        var failure: PluginFailure?
        var shrinker = SystemShrinker(signature: signature)
        shrinker.stop = { stop() || failure != nil }
        let (shrunk, outcome, attempts) = shrinker.shrink(original) { [runner] c in
            let outcome = c.run(on: runner, behaviour: behaviour, stopAt: signature, dispatch: dispatch)
            if failure == nil, let f = self.failure(outcome, on: runner) { failure = f }
            if outcome.error != nil { runner.restart() }
            return outcome
        }
        if let failure { throw failure }
        return SystemFuzzer.Finding(
            signature: signature, caseSeed: seed, originalSteps: original.actions.count, systemCase: shrunk,
            outcome: outcome, shrinkAttempts: attempts, dispatch: dispatch)
    }
}
