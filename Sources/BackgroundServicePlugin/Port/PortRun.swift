import EmulatedIOS
import HostProtocol

/// One run of a seed method as the queues see it: stepped (a ``StepRun``, made at the first
/// step) or run at once (``StepProgram/direct``). A concrete type: called through ``StepJob``,
/// a generic `StepRun` would run unspecialized, looking up its metadata at every step.
final class PortRun: StepTrace, StepJob {
    private let program: StepProgram<PortFrame>
    private let frame: PortFrame
    /// Not started; stepped (its ``StepRun``); running at once; or finished (run at once,
    /// or abandoned with its process).
    private enum State {
        case ready
        case stepping(StepRun<PortFrame>)
        case runningAtOnce
        case finished
    }
    private var state = State.ready

    init(_ program: StepProgram<PortFrame>, _ frame: PortFrame) {
        self.program = program
        self.frame = frame
    }

    var name: String { program.name }
    var runningStep: String? {
        switch state {
        case .runningAtOnce: label
        case .stepping(let run): run.runningStep
        case .ready, .finished: nil
        }
    }

    var isFinished: Bool {
        switch state {
        case .finished: true
        case .stepping(let run): run.isFinished
        case .ready, .runningAtOnce: program.steps.isEmpty
        }
    }

    func step() {
        if abandonedWithItsProcess() { return }
        switch state {
        case .ready:
            let run = StepRun(program, frame: frame)
            state = .stepping(run)
            run.step()
        case .stepping(let run): run.step()
        case .runningAtOnce, .finished: return
        }
    }

    func runToEnd() {
        if abandonedWithItsProcess() { return }
        switch state {
        case .ready:
            state = .runningAtOnce
            _ = program.direct(frame, self)
            state = .finished
        case .stepping(let run): run.runToEnd()
        case .runningAtOnce, .finished: return
        }
    }

    /// The app's process ended with this job in progress or queued (`--os ios`, a batch under
    /// `--dispatch tauri`): its remaining statements never run, and its own invoke, if still
    /// unanswered, is answered `terminated` as every invoke the process held.
    private func abandonedWithItsProcess() -> Bool {
        guard frame.plugin.processEnded else { return false }
        abandon(.terminated)
        return true
    }

    func abandon(_ reason: RejectReason) {
        state = .finished
        if let invoke = frame.invoke, !invoke.isAnswered { invoke.reject(reason) }
    }
}
