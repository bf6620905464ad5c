import HostProtocol

/// Reduces a failing step sequence to a small one that still fails the same way:
/// delta debugging over steps, then simpler parameter values and times.
public struct Shrinker {
    /// Whether a candidate still fails the same way.
    let stillFails: ([FuzzStep]) -> Bool
    /// How many candidates were tried.
    public private(set) var attempts = 0
    /// The most candidates to try.
    let budget: Int

    /// Creates a shrinker around a failure test.
    public init(budget: Int = 2000, stillFails: @escaping ([FuzzStep]) -> Bool) {
        self.budget = budget
        self.stillFails = stillFails
    }

    private mutating func test(_ steps: [FuzzStep]) -> Bool {
        guard attempts < budget else { return false }
        attempts += 1
        return stillFails(steps)
    }

    /// The smallest sequence found.
    public mutating func shrink(_ failing: [FuzzStep]) -> [FuzzStep] {
        var steps = ddmin(failing)
        steps = simplifyBatches(steps)
        steps = simplifyParams(steps)
        return ddmin(steps)
    }

    /// Batches (`--dispatch tauri`): drops members one at a time and their params' members,
    /// then makes each schedule
    /// simpler: its `main` choices turned into `ipc` from the last one back (past its end
    /// the schedule is `ipc` anyway, so trailing `ipc` choices are dropped).
    mutating func simplifyBatches(_ input: [FuzzStep]) -> [FuzzStep] {
        var steps = input
        for i in steps.indices {
            guard var members = steps[i].members else { continue }
            var m = members.count - 1
            while m >= 0, members.count > 1 {
                var candidate = steps
                var fewer = members
                fewer.remove(at: m)
                candidate[i].input = .batch(fewer)
                if test(candidate) {
                    steps = candidate
                    members = fewer
                }
                m -= 1
            }
            for m in members.indices {
                guard case .request(let r) = members[m], case .object(let params)? = r.params else { continue }
                for key in params.keys.sorted() {
                    guard case .request(var current) = members[m], case .object(var left)? = current.params else {
                        continue
                    }
                    left.removeValue(forKey: key)
                    current.params = .object(left)
                    var fewer = members
                    fewer[m] = .request(current)
                    var candidate = steps
                    candidate[i].input = .batch(fewer)
                    if test(candidate) {
                        steps = candidate
                        members = fewer
                    }
                }
            }
            for c in steps[i].schedule.indices.reversed() where steps[i].schedule[c] == .main {
                var candidate = steps
                candidate[i].schedule[c] = .ipc
                if test(candidate) { steps = candidate }
            }
            while steps[i].schedule.last == .ipc { steps[i].schedule.removeLast() }
        }
        return steps
    }

    /// Delta debugging over the steps.
    mutating func ddmin(_ input: [FuzzStep]) -> [FuzzStep] {
        let check = stillFails
        return DeltaDebugging.minimize(input, budget: budget, attempts: &attempts, stillFails: check)
    }

    /// Tries, step by step, to drop params members and to make numbers rounder.
    mutating func simplifyParams(_ input: [FuzzStep]) -> [FuzzStep] {
        var steps = input
        for i in steps.indices {
            guard case .object(let members)? = steps[i].params else { continue }
            for key in members.keys.sorted() {
                guard case .object(var current)? = steps[i].params, current[key] != nil else { continue }
                current.removeValue(forKey: key)
                var candidate = steps
                candidate[i] = steps[i].with(params: .object(current))
                if test(candidate) { steps = candidate }
            }
            guard case .object(let after)? = steps[i].params else { continue }
            for (key, value) in after.sorted(by: { $0.key < $1.key }) {
                guard case .number(let n) = value, let d = Double(n.literal), d.isFinite else { continue }
                for simpler in [d.rounded(.down), (d * 10).rounded(.down) / 10].filter({ $0 != d && $0 >= 0 }) {
                    var members = after
                    members[key] = .number(simpler)
                    var candidate = steps
                    candidate[i] = steps[i].with(params: .object(members))
                    if test(candidate) {
                        steps = candidate
                        break
                    }
                }
            }
        }
        return steps
    }
}
