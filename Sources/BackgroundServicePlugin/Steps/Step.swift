/// One statement of a ported method: the unit the dispatcher interleaves.
///
/// The port writes each seed method as a tree of steps named after the seed's statements
/// (``StepWriting``). A step reads or writes the plugin's state, or has an effect on the
/// outside (an invoke answered, a task completed, a request submitted); `Frame` holds the
/// method's local variables. Under `--dispatch serial` a program's steps run one after the
/// other at once; under `--dispatch tauri` another queue's steps may run between two of them.
struct Step<Frame: AnyObject> {
    /// What the step does.
    enum Kind {
        /// A read, a write or an effect.
        case action((Frame) -> Void)
        /// `if condition { then } else { otherwise }`: evaluating the condition is the step.
        case branch((Frame) -> Bool, then: [Step], otherwise: [Step])
        /// `guard condition else { return }`: the rest of the program runs only when it holds.
        case exitUnless((Frame) -> Bool)
        /// A call of a helper (`cleanup()`): its steps run in place; the call takes no step itself.
        case call([Step])
    }

    /// The seed's statement (or the helper's call) this step stands for.
    let label: String
    /// What it does.
    let kind: Kind

    /// The steps directly inside (the arms of a branch, the body of a call).
    var children: [[Step]] {
        switch kind {
        case .branch(_, let then, let otherwise): [then, otherwise]
        case .call(let body): [body]
        case .action, .exitUnless: []
        }
    }

    /// The same step with its inner step lists replaced (in the order of ``children``).
    func withChildren(_ lists: [[Step]]) -> Step {
        switch kind {
        case .branch(let condition, _, _):
            Step(label: label, kind: .branch(condition, then: lists[0], otherwise: lists[1]))
        case .call: Step(label: label, kind: .call(lists[0]))
        case .action, .exitUnless: self
        }
    }
}

/// Which step a direct run (``StepProgram/direct``) is in, with the helper calls it is in
/// (`cleanup() › pendingCancelInvoke = nil`). A class a job can be, to save an allocation.
class StepTrace {
    var label = ""
}

/// `if let name = value`: binds the frame's `name` and tells whether it is non-nil.
@inline(__always)
func bind<T>(_ name: inout T?, _ value: T?) -> Bool {
    name = value
    return value != nil
}

/// Builds a list of steps from statements, helper calls (`[Step]`), `if` and `if`/`else`
/// on build-time conditions (the profile).
@resultBuilder
enum StepsBuilder<Frame: AnyObject> {
    static func buildExpression(_ step: Step<Frame>) -> [Step<Frame>] { [step] }
    static func buildExpression(_ steps: [Step<Frame>]) -> [Step<Frame>] { steps }
    static func buildBlock(_ parts: [Step<Frame>]...) -> [Step<Frame>] { parts.flatMap { $0 } }
    static func buildOptional(_ part: [Step<Frame>]?) -> [Step<Frame>] { part ?? [] }
    static func buildEither(first part: [Step<Frame>]) -> [Step<Frame>] { part }
    static func buildEither(second part: [Step<Frame>]) -> [Step<Frame>] { part }
}

/// The little language of the port: each function makes one ``Step`` named after a seed statement.
///
/// ```swift
/// when("if let task = currentRefreshTask") { bind(&$0.task, $0.currentRefreshTask) } then: {
///     step("currentRefreshTask = nil") { $0.currentRefreshTask = nil }
///     step("task.setTaskCompleted(success: false)") { $0.task?.setTaskCompleted(success: false) }
/// }
/// ```
protocol StepWriting {
    /// The frame the steps run on.
    associatedtype Frame: AnyObject
}

extension StepWriting {
    /// A statement: one read, write or effect.
    func step(_ label: String, _ body: @escaping (Frame) -> Void) -> Step<Frame> {
        Step(label: label, kind: .action(body))
    }

    /// `if condition { … } else { … }`.
    func when(
        _ label: String, _ condition: @escaping (Frame) -> Bool,
        @StepsBuilder<Frame> then: () -> [Step<Frame>],
        @StepsBuilder<Frame> else otherwise: () -> [Step<Frame>] = { [] }
    ) -> Step<Frame> {
        Step(label: label, kind: .branch(condition, then: then(), otherwise: otherwise()))
    }

    /// `guard condition else { return }`.
    func exitUnless(_ label: String, _ condition: @escaping (Frame) -> Bool) -> Step<Frame> {
        Step(label: label, kind: .exitUnless(condition))
    }

    /// A helper called in place (`cleanup()`, `scheduleNext()`).
    func call(_ label: String, @StepsBuilder<Frame> _ body: () -> [Step<Frame>]) -> Step<Frame> {
        Step(label: label, kind: .call(body()))
    }
}
