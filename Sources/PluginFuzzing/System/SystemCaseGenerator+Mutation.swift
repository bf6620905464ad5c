import HostProtocol
import HostSimulation

/// Guided search's mutations (issue 25): a new case made from one the job's ``FuzzCorpus``
/// kept. The scenario is kept, race plan included, so the kept prefix of actions plays out as
/// it did (the simulation is a function of the case) and reaches the state that made its case
/// worth keeping; what follows is new.
extension SystemCaseGenerator {
    /// A case made from `parent`, at most `max` actions long, its new actions drawn from the
    /// alphabet the modes give (``oneAction(ios:tauri:)``), under clock bias biased the same way:
    /// - mostly a prefix kept and a new tail drawn (the way deeper);
    /// - or one action replaced, or one inserted;
    /// - or a stretch of the parent repeated (many starts drain a pool, D7);
    /// - and, one time in ten, the race plan redrawn (the same steps, the races decided anew).
    mutating func mutate(_ parent: SystemCase, max: Int, ios: Bool, tauri: Bool, clockBias: Bool) -> SystemCase {
        var c = parent
        let n = c.actions.count
        let cap = Swift.max(max, 1)
        switch rng.below(10) {
        case 0..<6:
            // (A parent at the limit keeps fewer than all its actions: a tail must fit.)
            let keep = rng.below(n >= cap ? n : n + 1)
            let room = Swift.max(1, cap - keep)
            c.actions =
                Array(c.actions.prefix(keep)) + fresh(1 + rng.below(room), ios: ios, tauri: tauri, clockBias: clockBias)
        case 6:
            if n > 0 { c.actions[rng.below(n)] = fresh(1, ios: ios, tauri: tauri, clockBias: clockBias)[0] }
        case 7:
            c.actions.insert(fresh(1, ios: ios, tauri: tauri, clockBias: clockBias)[0], at: rng.below(n + 1))
        default:
            if n > 0 {
                let from = rng.below(n)
                let stretch = c.actions[from..<Swift.min(n, from + 1 + rng.below(3))]
                let copies = 1 + rng.below(4)
                c.actions.insert(contentsOf: Array(repeatElement(stretch, count: copies).joined()), at: from)
            }
        }
        if c.actions.count > cap { c.actions.removeLast(c.actions.count - cap) }
        if rng.chance(0.1) { c.scenario.races = RacePlan(seed: rng.next()) }
        return c
    }

    /// `count` actions drawn as a fresh case draws them.
    private mutating func fresh(_ count: Int, ios: Bool, tauri: Bool, clockBias: Bool) -> [SystemAction] {
        var actions = (0..<count).map { _ in oneAction(ios: ios, tauri: tauri) }
        if clockBias { biasTowardsDeadlines(&actions) }
        return actions
    }
}
