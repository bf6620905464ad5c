import HostProtocol
import RustSide

/// How a simulation decides the races it meets (``Race``): for each race, the
/// orders to take, in the order that race comes up; once a race's list is used up,
/// an order drawn from `seed` (with ``Race/secondFirstChance``), or without a seed
/// the first-named side (`listener-first`, `stop-first`, `plugin-first`).
///
/// A fuzzer draws with a seed; a trace freezes what was drawn into `choices`, so
/// that replaying it takes exactly the same orders.
///
/// ```swift
/// let plan = RacePlan(choices: [.listenerVsCompletion: [.second]])   // completion-first, once
/// ```
public struct RacePlan: Sendable, Hashable {
    /// Per race, which side goes first each time it comes up.
    public var choices: [Race: [Race.Side]]
    /// Draws orders once a race's list is used up (nil: the first-named side).
    public var seed: UInt64?

    /// Creates a plan.
    public init(choices: [Race: [Race.Side]] = [:], seed: UInt64? = nil) {
        self.choices = choices
        self.seed = seed
    }

    /// The plan that takes exactly the recorded orders, and the first-named side after them.
    public init(frozen records: [RaceRecord]) {
        var choices: [Race: [Race.Side]] = [:]
        for r in records { choices[r.race, default: []].append(r.first) }
        self.init(choices: choices, seed: nil)
    }

    /// Whether a simulation with this plan races `race` at all: always, but for a race that
    /// ``Race/needsPlan``, only with a seed or orders for it.
    public func decides(_ race: Race) -> Bool {
        !race.needsPlan || seed != nil || choices[race] != nil
    }

    /// Every race's orders, as traces write them (`{"listener-vs-completion": ["completion-first"]}`).
    public var orders: [String: [String]] {
        Dictionary(uniqueKeysWithValues: choices.map { race, sides in (race.rawValue, sides.map(race.order)) })
    }

    /// Reads ``orders`` back; nil when a race or an order is unknown.
    public init?(orders: [String: [String]], seed: UInt64?) {
        var choices: [Race: [Race.Side]] = [:]
        for (name, list) in orders {
            guard let race = Race(rawValue: name) else { return nil }
            var sides: [Race.Side] = []
            for order in list {
                guard let side = race.side(order: order) else { return nil }
                sides.append(side)
            }
            choices[race] = sides
        }
        self.init(choices: choices, seed: seed)
    }
}
