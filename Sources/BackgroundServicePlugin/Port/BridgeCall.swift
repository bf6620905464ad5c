import EmulatedIOS
import HostProtocol

/// One invoke on its way through Tauri's bridge into the app: the job that calls a seed
/// method (an `@objc` method of the plugin) for it.
///
/// The plugin it calls is the one of the app's process as it is when the job takes its
/// first step, not when the request was read: under `--dispatch tauri` a batch is read
/// through before its jobs run, and an `os/` control of the same batch may end the process
/// (`os/terminate`) or start a new one (`os/openApp`) first. With no process running then
/// (`--os ios`), nobody can answer: the invoke gets `-32000` `terminated` ("the app is not
/// running"). Finding the process and the method's first statement are one step.
///
/// ```swift
/// let call = BridgeCall(invoke, on: world.os) { $0.completeBgTask }
/// dispatcher.asyncIPC(call)
/// ```
final class BridgeCall: StepJob {
    private let invoke: Invoke
    /// The device, whose current process the call finds. (It outlives every process; only
    /// `plugin/reset` replaces it, and a reset is a barrier: no call is queued across one.)
    private let os: EmulatedOS
    private let method: (BackgroundServicePlugin) -> StepProgram<PortFrame>
    /// Before its first step; its method running in the process found then; or refused,
    /// with no process to run in.
    private enum State {
        case waiting
        case running(PortRun)
        case refused
    }
    private var state = State.waiting

    /// A call of `method` for `invoke`, into the plugin of `os`'s app process when the job
    /// starts.
    init(_ invoke: Invoke, on os: EmulatedOS, _ method: @escaping (BackgroundServicePlugin) -> StepProgram<PortFrame>) {
        self.invoke = invoke
        self.os = os
        self.method = method
    }

    var name: String { invoke.method }
    var runningStep: String? {
        if case .running(let run) = state { return run.runningStep }
        return nil
    }

    var isFinished: Bool {
        switch state {
        case .waiting: false
        case .running(let run): run.isFinished
        case .refused: true
        }
    }

    func step() { started()?.step() }

    func runToEnd() { started()?.runToEnd() }

    /// (Called by `plugin/reset` on a body parked on a blocked main thread, which has not
    /// started: the queues are empty at a reset.)
    func abandon(_ reason: RejectReason) {
        switch state {
        case .waiting:
            state = .refused
            if !invoke.isAnswered { invoke.reject(reason) }
        case .running(let run): run.abandon(reason)
        case .refused: return
        }
    }

    /// The run, made at the first step in the app's process of that moment.
    private func started() -> PortRun? {
        switch state {
        case .running(let run): return run
        case .refused: return nil
        case .waiting:
            guard os.app.isRunning, let plugin = os.app.plugin as? BackgroundServicePlugin else {
                state = .refused
                invoke.reject(RPCError.appNotRunning)
                return nil
            }
            let run = PortRun(method(plugin), PortFrame(plugin, invoke: invoke))
            state = .running(run)
            return run
        }
    }
}
