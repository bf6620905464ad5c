import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// What shrinking works on: simpler variants of a case, its steps (an action with the
/// races and runs it took), and a case rebuilt from steps or frozen to replay exactly.
extension SystemCase {
    /// Variants one change simpler, to try while shrinking: one race order put back
    /// to the first-named side, no service started at launch (`--os ios`), or a pool one
    /// thread smaller (down to 2: one leaked thread and one held) or tokio's default
    /// instead of a smaller one.
    public func simplerVariants() -> [SystemCase] {
        var variants: [SystemCase] = []
        for (race, sides) in scenario.races.choices.sorted(by: { $0.key < $1.key }) {
            for (i, side) in sides.enumerated() where side == .second {
                var c = self
                c.scenario.races.choices[race]?[i] = .first
                variants.append(c)
            }
        }
        // The app as its users write it: no start at launch.
        if scenario.restartAtLaunch {
            var c = self
            c.scenario.restartAtLaunch = false
            variants.append(c)
        }
        if scenario.blockingThreads < BlockingPool.tokioDefault {
            var c = self
            c.scenario.blockingThreads = BlockingPool.tokioDefault
            variants.append(c)
            if scenario.blockingThreads > 2 {
                c.scenario.blockingThreads = scenario.blockingThreads - 1
                variants.append(c)
            }
        }
        return variants
    }

    /// An action, the race orders decided while it was played and the runs its starts
    /// got: what shrinking keeps or drops together.
    public struct Step: Sendable, Hashable {
        /// The action.
        public var action: SystemAction
        /// The races decided while it was played.
        public var races: [RaceRecord]
        /// The runs (indices into the scenario's `runs`) its starts got.
        public var services: [Int]
    }

    /// The actions with the races each decided and the runs each started in `outcome`.
    public func steps(_ outcome: Outcome) -> [Step] {
        actions.enumerated().map { i, a in
            Step(
                action: a, races: i < outcome.races.count ? outcome.races[i] : [],
                services: i < outcome.services.count ? outcome.services[i] : [])
        }
    }

    /// This case's scenario with `steps`: their actions, their races decided in the same
    /// orders, each start with the same service (the runs no start uses left out).
    public func with(steps: [Step]) -> SystemCase {
        var c = SystemCase(scenario: scenario, actions: steps.map(\.action))
        c.scenario.races = RacePlan(frozen: steps.flatMap(\.races))
        let used = steps.flatMap(\.services)
        var kept: [Int] = []
        for i in used where !kept.contains(i) { kept.append(i) }
        if !kept.isEmpty {
            c.scenario.runs = kept.map { scenario.runs[$0] }
            c.scenario.serviceOrder = used.map { kept.firstIndex(of: $0)! }
        }
        return c
    }

    /// This case with the races decided as they were in `outcome` (and the
    /// first-named side for any race beyond them): it replays exactly.
    public func frozen(_ outcome: Outcome) -> SystemCase {
        var c = self
        c.scenario.races = RacePlan(frozen: outcome.allRaces)
        return c
    }
}
