import HostProtocol
import PluginHost

/// The system level of the fuzzing loop: scenarios and actions from
/// ``SystemCaseGenerator``, each played in a simulation on the job's one plugin.
struct SystemLevel: FuzzLevel {
    let configuration: SystemFuzzer.Configuration

    var seedSalt: UInt64 { 0xD1B5_4A32_D192_ED03 }

    /// Never fails as a whole: a plugin that cannot start fails each case instead.
    func makeRunner() -> SystemCaseRunner { SystemCaseRunner(launcher: configuration.plugin) }

    func generate(seed: UInt64) -> SystemCase {
        var g = SystemCaseGenerator(seed: seed)
        var scenario = g.scenario()
        let ios = configuration.os == .ios
        if ios { g.ios(&scenario) }
        return SystemCase(scenario: scenario, actions: g.actions(max: configuration.maxSteps, ios: ios))
    }

    func run(_ c: SystemCase, on runner: inout SystemCaseRunner) -> SystemCase.Outcome {
        c.run(on: runner, behaviour: configuration.behaviour)
    }

    func steps(_ c: SystemCase, _ outcome: SystemCase.Outcome) -> Int { outcome.timeline.count }

    func signatures(_ outcome: SystemCase.Outcome) -> [String] { outcome.signatures }

    /// A run that could not be completed leaves the plugin in an unknown state: a new
    /// one. (An invariant broken is the system's behaviour; the reset before the next
    /// case clears it.)
    func recover(_ runner: inout SystemCaseRunner, after outcome: SystemCase.Outcome) {
        if outcome.error != nil { runner.restart() }
    }

    func close(_ runner: SystemCaseRunner) { runner.close() }

    /// Delta debugging over the actions, then simpler times and services.
    func shrink(
        _ original: SystemCase, signature: String, caseSeed seed: UInt64, on runner: inout SystemCaseRunner
    ) -> SystemFuzzer.Finding {
        let behaviour = configuration.behaviour
        var attempts = 0
        var current = original
        // Actions after the step where it first broke do not matter.
        if let step = original.run(on: runner, behaviour: behaviour, stopAt: signature).first(signature)?.step {
            current.actions = Array(current.actions.prefix(step + 1))
        }
        /// The step where the candidate first breaks the same invariant for the same cause, if it does.
        func failingStep(_ c: SystemCase) -> Int? {
            attempts += 1
            let outcome = c.run(on: runner, behaviour: behaviour, stopAt: signature)
            if outcome.error != nil { runner.restart() }
            return outcome.first(signature)?.step
        }
        func fails(_ c: SystemCase) -> Bool { failingStep(c) != nil }
        let scenario = current.scenario
        var ddminAttempts = 0
        current.actions = DeltaDebugging.minimize(current.actions, budget: 400, attempts: &ddminAttempts) { actions in
            fails(SystemCase(scenario: scenario, actions: actions))
        }
        // Simpler times: each advance halved, or made a whole number of seconds, while it still fails.
        for i in current.actions.indices {
            guard case .advance(let t) = current.actions[i] else { continue }
            let simpler = [VirtualTime(nanoseconds: t.nanoseconds / 2), VirtualTime(seconds: t.seconds.rounded(.down))!]
            for simpler in simpler where simpler != t && simpler.nanoseconds > 0 {
                var candidate = current
                candidate.actions[i] = .advance(simpler)
                if attempts < 600, fails(candidate) {
                    current = candidate
                    break
                }
            }
        }
        // Fewer and simpler services, and the default schedule.
        while current.scenario.runs.count > 1, attempts < 600 {
            var candidate = current
            candidate.scenario.runs.removeLast()
            guard fails(candidate) else { break }
            current = candidate
        }
        if current.scenario.scheduleSeed != nil, attempts < 600 {
            var candidate = current
            candidate.scenario.scheduleSeed = nil
            if fails(candidate) { current = candidate }
        }
        // The app as its users write it: no start at launch.
        if current.scenario.restartAtLaunch, attempts < 600 {
            var candidate = current
            candidate.scenario.restartAtLaunch = false
            if fails(candidate) { current = candidate }
        }
        // The violation may now come earlier: nothing after it matters.
        if let step = failingStep(current), step + 1 < current.actions.count {
            var candidate = current
            candidate.actions = Array(current.actions.prefix(step + 1))
            if fails(candidate) { current = candidate }
        }
        let outcome = current.run(on: runner, behaviour: behaviour, stopAt: signature)
        if outcome.error != nil { runner.restart() }
        return SystemFuzzer.Finding(
            signature: signature, caseSeed: seed, originalSteps: original.actions.count, systemCase: current,
            outcome: outcome, shrinkAttempts: attempts)
    }
}
