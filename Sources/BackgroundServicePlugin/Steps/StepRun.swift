import HostProtocol

/// A job a queue runs one step at a time (see ``Dispatcher``): a ``StepRun`` for a concrete
/// frame type (through this protocol a generic `StepRun` would run unspecialized, slowly).
protocol StepJob: AnyObject {
    /// The seed method it runs (`completeBgTask`).
    var name: String { get }
    /// While a step runs: the step, with the helper calls it is in (`cleanup() › safetyTimer = nil`).
    var runningStep: String? { get }
    /// Whether every step has run (or the program returned early).
    var isFinished: Bool { get }
    /// Runs the next step.
    func step()
    /// Runs every remaining step.
    func runToEnd()
    /// Never runs on: its invoke, if still unanswered, is answered `reason` (-32000).
    func abandon(_ reason: RejectReason)
}

/// One run of a ``StepProgram`` on a fresh frame: a cursor over its tree of steps.
///
/// Entering a helper call takes no step; evaluating a branch's condition does, and the arm
/// it picks runs next; an `exitUnless` that fails ends the run.
final class StepRun<Frame: AnyObject> {
    let name: String
    /// The method's frame (its parameters and local variables).
    let frame: Frame
    /// The step lists being run, innermost last, each with the index of its next step and the
    /// helper call that entered it (nil for a branch's arm).
    private var stack: [(steps: [Step<Frame>], next: Int, call: String?)]

    init(_ program: StepProgram<Frame>, frame: Frame) {
        name = program.name
        self.frame = frame
        stack = [(program.steps, 0, nil)]
        settle()
    }

    var isFinished: Bool { stack.isEmpty }

    /// The step that runs next and the helper calls it is in; nil when finished.
    var nextStep: String? {
        stack.last.map { describe($0.steps[$0.next]) }
    }

    var runningStep: String? {
        guard isRunning, let top = stack.last, top.next > 0 else { return nil }
        return describe(top.steps[top.next - 1])
    }

    /// True while a step's body or condition runs (the stack still holds its list).
    private var isRunning = false

    private func describe(_ step: Step<Frame>) -> String {
        (stack.compactMap { $0.call } + [step.label]).joined(separator: " › ")
    }

    func step() {
        guard let top = stack.last else { return }
        let step = top.steps[top.next]
        stack[stack.count - 1].next += 1
        isRunning = true
        defer {
            isRunning = false
            settle()
        }
        switch step.kind {
        case .action(let body):
            body(frame)
        case .branch(let condition, let then, let otherwise):
            let arm = condition(frame) ? then : otherwise
            if !arm.isEmpty { stack.append((arm, 0, nil)) }
        case .exitUnless(let condition):
            if !condition(frame) { stack.removeAll() }
        case .call:
            preconditionFailure("a call is entered by settle(), never run as a step")
        }
    }

    /// Runs every remaining step.
    func runToEnd() {
        while !isFinished { step() }
    }

    /// Moves the cursor to the next step that runs: out of finished lists, into calls.
    private func settle() {
        while let top = stack.last {
            guard top.next < top.steps.count else {
                stack.removeLast()
                continue
            }
            guard case .call(let body) = top.steps[top.next].kind else { return }
            stack[stack.count - 1].next += 1
            if !body.isEmpty { stack.append((body, 0, top.steps[top.next].label)) }
        }
    }
}
