import EmulatedIOS
import HostProtocol

/// The frame of one run of a seed method: the method's parameters and local variables,
/// named as in the seed, and the plugin's own state and collaborators through `$0.name`.
///
/// A step of the port is a closure on its frame, so a statement of the seed reads nearly as
/// written: the seed's `currentRefreshTask = nil` is `$0.currentRefreshTask = nil`, its
/// `task.setTaskCompleted(success: success)` is `$0.task?.setTaskCompleted(success: $0.success)`.
/// The state is reached through key paths, so only code in the port's main file, where the
/// state's setters are visible, can write it; mutants (`Mutants/`) can read it, not write it.
@dynamicMemberLookup
final class PortFrame {
    /// `self` in the seed.
    let plugin: BackgroundServicePlugin

    /// `invoke`: an `@objc` method's parameter; in the handlers, `if let invoke = pendingCancelInvoke`.
    var invoke: Invoke?
    /// `task`: a launch handler's parameter; elsewhere `if let task = currentRefreshTask` (or processing).
    var task: BGTask?
    /// `if let cancelInvoke = pendingCancelInvoke`.
    var cancelInvoke: Invoke?
    /// `completeBgTask`'s `let success`.
    var success = true
    /// `completeBgTask`'s `let hadActiveTask`.
    var hadActiveTask = false
    /// `startKeepalive`'s `args`.
    var args = StartKeepalive.Params()
    /// `handleProcessingTask`'s `if let timeout = processingSafetyTimeoutSecs`.
    var timeout: Double?
    /// `scheduleNext`'s `refreshReq`.
    var refreshReq: BGAppRefreshTaskRequest?
    /// `scheduleNext`'s `processingReq`.
    var processingReq: BGProcessingTaskRequest?

    init(_ plugin: BackgroundServicePlugin, invoke: Invoke? = nil, task: BGTask? = nil) {
        self.plugin = plugin
        self.invoke = invoke
        self.task = task
    }

    /// The plugin's state, read and written (where its setter is visible).
    subscript<T>(dynamicMember keyPath: ReferenceWritableKeyPath<BackgroundServicePlugin, T>) -> T {
        @inline(__always) get { plugin[keyPath: keyPath] }
        @inline(__always) set { plugin[keyPath: keyPath] = newValue }
    }

    /// The plugin's state and collaborators, read only.
    subscript<T>(dynamicMember keyPath: KeyPath<BackgroundServicePlugin, T>) -> T {
        @inline(__always) get { plugin[keyPath: keyPath] }
    }
}

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
        state = .finished
        if let invoke = frame.invoke, !invoke.isAnswered { invoke.reject(.terminated) }
        return true
    }
}
