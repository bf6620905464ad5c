import HostProtocol
import HostSimulation
import PluginHost

/// Clock bias (issue 25): time steps that go to the next deadline rather than by a drawn
/// amount. The known findings that take a race or a timer (D3, D6 without a listener, the
/// stale safety timer) need an action at the instant a deadline comes due; a uniform draw
/// rarely lands there, a step to the deadline always does.
///
/// Opt-in (`plugin-host fuzz --clock-bias`, `bench --findings --clock-bias`): without it the
/// generator draws exactly as before, so every seed gives the same cases.
extension SystemCaseGenerator {
    /// Turns each top-level ``SystemAction/advance(_:)`` of `actions`, with an even chance, into
    /// ``SystemAction/advanceToNextDeadline``.
    mutating func biasTowardsDeadlines(_ actions: inout [SystemAction]) {
        for i in actions.indices {
            if case .advance = actions[i], rng.chance(0.5) { actions[i] = .advanceToNextDeadline }
        }
    }
}

extension SystemCase {
    /// How far a step to the next deadline goes when nothing is due: a minute.
    static let noDeadlineStep = VirtualTime(seconds: 60)!

    /// The action as played: ``SystemAction/advanceToNextDeadline`` becomes the time step to the
    /// first time after now at which the simulation's clock would stop
    /// (``SystemSimulation/nextDue()``: the plugin's safety timer or auto-launch, under `--os
    /// ios` the OS's next event, the OS's refresh budget, the Rust side's next sleeper), or
    /// ``noDeadlineStep`` when none is due; every other action is itself.
    func resolved(_ action: SystemAction, on sim: SystemSimulation) throws(SystemSimulation.SimulationError)
        -> SystemAction
    {
        guard action == .advanceToNextDeadline else { return action }
        guard let next = try sim.nextDue() else { return .advance(Self.noDeadlineStep) }
        return .advance(VirtualTime(nanoseconds: next.nanoseconds - sim.now.nanoseconds))
    }
}
