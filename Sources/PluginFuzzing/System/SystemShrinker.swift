import HostProtocol
import PluginHost

/// Reduces a failing system case to a short one that breaks the same invariant for
/// the same cause, against the real plugin.
///
/// Each action keeps the race orders decided while it was played and the service
/// its start got (``SystemCase/Step``), so that dropping other actions does not
/// change what the kept ones meet. Rounds of: ddmin over the steps, simpler times,
/// then simpler scenarios (a race order back to the first-named side, a pool closer
/// to tokio's); a round that simplified the scenario is followed by another, since
/// a smaller pool can need fewer steps.
///
/// ```swift
/// let (shrunk, outcome, runs) = SystemShrinker(signature: s).shrink(found) { $0.run(plugin: p, behaviour: .seed) }
/// ```
struct SystemShrinker {
    let signature: String
    /// At most this many runs of the case.
    var budget = 600
    /// Once true, no candidate is tried (the run's time is up, or the plugin failed):
    /// the case shrunk so far is played once more, for its outcome.
    var stop: () -> Bool = { false }

    /// The shrunk case (its races frozen), its outcome, and how many runs it took;
    /// `play` runs a candidate (stopping at the signature, if it likes).
    func shrink(
        _ original: SystemCase, play: (SystemCase) -> SystemCase.Outcome
    ) -> (SystemCase, SystemCase.Outcome, Int) {
        var attempts = 0
        func run(_ c: SystemCase) -> SystemCase.Outcome {
            attempts += 1
            return play(c)
        }
        func fails(_ c: SystemCase) -> Bool { attempts < budget && !stop() && run(c).first(signature) != nil }
        var current = original
        for _ in 0..<3 where !stop() {
            // Actions after the step where it first broke do not matter.
            let outcome = run(current)
            var steps = current.steps(outcome)
            if let step = outcome.first(signature)?.step { steps = Array(steps.prefix(step + 1)) }
            let base = current.with(steps: steps)
            var ddminAttempts = 0
            let ddminBudget = max(0, min(400, budget - attempts))
            steps = DeltaDebugging.minimize(steps, budget: ddminBudget, attempts: &ddminAttempts) {
                fails(base.with(steps: $0))
            }
            steps = apart(steps) { fails(base.with(steps: $0)) }
            current = base.with(steps: steps)
            current = simplerTimes(current, fails: fails)
            var simplified = false
            while let candidate = current.simplerVariants().first(where: fails) {
                current = candidate
                simplified = true
            }
            if !simplified || attempts >= budget { break }
        }
        let outcome = run(current)
        return (current.frozen(outcome), outcome, attempts)
    }

    /// Each OS event at the instant of a host invoke (``SystemAction/together(_:os:invoke:)``)
    /// replaced by the action it came with alone (its queue decisions dropped), while it still fails.
    private func apart(_ input: [SystemCase.Step], fails: ([SystemCase.Step]) -> Bool) -> [SystemCase.Step] {
        var steps = input
        for i in steps.indices {
            guard case .together(let during, _, _) = steps[i].action else { continue }
            var candidate = steps
            candidate[i].action = during
            candidate[i].races.removeAll { $0.race == .ipcVsMain }
            if fails(candidate) { steps = candidate }
        }
        return steps
    }

    /// Two advances in a row made one; then each advance halved, or made a whole
    /// number of seconds, while it still fails.
    private func simplerTimes(_ c: SystemCase, fails: (SystemCase) -> Bool) -> SystemCase {
        var current = c
        var i = 0
        while i + 1 < current.actions.count {
            if case .advance(let a) = current.actions[i], case .advance(let b) = current.actions[i + 1] {
                var candidate = current
                candidate.actions.replaceSubrange(i...(i + 1), with: [.advance(a.adding(nanoseconds: b.nanoseconds))])
                if fails(candidate) {
                    current = candidate
                    continue
                }
            }
            i += 1
        }
        for i in current.actions.indices {
            guard case .advance(let t) = current.actions[i] else { continue }
            let halved = VirtualTime(nanoseconds: t.nanoseconds / 2)
            let whole = VirtualTime(seconds: t.seconds.rounded(.down))!
            for simpler in [halved, whole] where simpler != t && simpler.nanoseconds > 0 {
                var candidate = current
                candidate.actions[i] = .advance(simpler)
                if fails(candidate) {
                    current = candidate
                    break
                }
            }
        }
        return current
    }
}
