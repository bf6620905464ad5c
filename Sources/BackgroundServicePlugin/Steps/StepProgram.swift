/// A seed method as steps: what a queue runs as one job, one step at a time (``StepRun``)
/// or, when nothing can come between its steps (`--dispatch serial`), all at once (`direct`).
struct StepProgram<Frame: AnyObject> {
    /// The seed method's name (`completeBgTask`, `handleExpiration`).
    let name: String
    /// Its steps.
    let steps: [Step<Frame>]
    /// The steps composed into one closure, built once: a run without a cursor. Returns false
    /// when an `exitUnless` ended the method; tells `trace` which step runs.
    let direct: (Frame, StepTrace) -> Bool

    init(name: String, steps: [Step<Frame>]) {
        self.name = name
        self.steps = steps
        direct = Self.compose(steps, in: "")
    }

    /// `calls`: the helper calls the steps are in (`"cleanup() › "`).
    private static func compose(_ steps: [Step<Frame>], in calls: String) -> (Frame, StepTrace) -> Bool {
        let parts = steps.map { compose($0, in: calls) }
        return { frame, trace in
            for part in parts where !part(frame, trace) { return false }
            return true
        }
    }

    private static func compose(_ step: Step<Frame>, in calls: String) -> (Frame, StepTrace) -> Bool {
        let label = calls + step.label
        switch step.kind {
        case .action(let body):
            return { frame, trace in
                trace.label = label
                body(frame)
                return true
            }
        case .branch(let condition, let then, let otherwise):
            let (then, otherwise) = (compose(then, in: calls), compose(otherwise, in: calls))
            return { frame, trace in
                trace.label = label
                return condition(frame) ? then(frame, trace) : otherwise(frame, trace)
            }
        case .exitUnless(let condition):
            return { frame, trace in
                trace.label = label
                return condition(frame)
            }
        case .call(let body):
            return compose(body, in: label + " › ")
        }
    }
}
