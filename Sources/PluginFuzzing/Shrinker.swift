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
        steps = simplifyParams(steps)
        return ddmin(steps)
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
