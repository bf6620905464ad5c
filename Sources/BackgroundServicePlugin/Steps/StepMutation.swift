/// A test-only change to the port's programs, made when the port builds them: how the
/// `BSP_FAULT` mutants reach the seed's methods without a fault check inside them.
///
/// A mutation names the steps it changes by label (the seed's statement), at any depth, in
/// the programs it lists (or all). The changes are those of mutation testing: drop a step,
/// duplicate it, replace it, insert steps after it, move it after another step of the same
/// list, unwrap a branch (its `then` arm runs unconditionally), or guard a step by a condition.
struct StepMutation<Frame: AnyObject> {
    /// What happens to a matching step.
    enum Change {
        case drop
        case duplicate
        case replace(Step<Frame>)
        case insertAfter([Step<Frame>])
        /// Moves the step after the step with this label in the same list.
        case moveAfter(String)
        /// A branch becomes its `then` arm: the condition is no longer evaluated.
        case unwrap
        /// The step runs only when the condition holds (a new branch with this label).
        case guarded(String, (Frame) -> Bool)
    }

    /// The programs it applies to; nil for every program.
    let programs: Set<String>?
    /// The labels of the steps it changes.
    let labels: Set<String>
    /// The change.
    let change: Change

    fileprivate var isMove: Bool {
        if case .moveAfter = change { return true }
        return false
    }

    init(_ change: Change, _ labels: Set<String>, in programs: Set<String>? = nil) {
        self.change = change
        self.labels = labels
        self.programs = programs
    }
}

extension StepProgram {
    /// The program with every mutation that applies to it made, in order; `matched` counts,
    /// per mutation, the steps it changed (a test checks that none matches nothing).
    func applying(_ mutations: [StepMutation<Frame>], matched: inout [Int]) -> StepProgram {
        if matched.count < mutations.count { matched += Array(repeating: 0, count: mutations.count - matched.count) }
        var steps = self.steps
        for (i, m) in mutations.enumerated() where m.programs?.contains(name) ?? true {
            steps = Self.rewrite(steps, m, count: &matched[i])
        }
        return StepProgram(name: name, steps: steps)
    }

    private static func rewrite(_ list: [Step<Frame>], _ m: StepMutation<Frame>, count: inout Int) -> [Step<Frame>] {
        var out: [Step<Frame>] = []
        for step in list {
            let inner = step.withChildren(step.children.map { rewrite($0, m, count: &count) })
            guard m.labels.contains(step.label), !m.isMove else {
                out.append(inner)
                continue
            }
            count += 1
            switch m.change {
            case .drop: break
            case .duplicate: out += [inner, inner]
            case .replace(let replacement): out.append(replacement)
            case .insertAfter(let steps): out += [inner] + steps
            case .moveAfter: break  // below, once the list is known
            case .unwrap:
                if case .branch(_, let then, _) = inner.kind { out += then } else { out.append(inner) }
            case .guarded(let label, let condition):
                out.append(Step(label: label, kind: .branch(condition, then: [inner], otherwise: [])))
            }
        }
        if case .moveAfter(let target) = m.change,
            let from = out.firstIndex(where: { m.labels.contains($0.label) }),
            out.contains(where: { $0.label == target })
        {
            let moved = out.remove(at: from)
            out.insert(moved, at: out.firstIndex { $0.label == target }! + 1)
            count += 1
        }
        return out
    }
}
