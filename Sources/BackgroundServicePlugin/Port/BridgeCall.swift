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
    /// The method's run in the process found at the first step.
    private var run: PortRun?
    private var refused = false

    /// A call of `method` for `invoke`, into the plugin of `os`'s app process when the job
    /// starts.
    init(_ invoke: Invoke, on os: EmulatedOS, _ method: @escaping (BackgroundServicePlugin) -> StepProgram<PortFrame>) {
        self.invoke = invoke
        self.os = os
        self.method = method
    }

    var name: String { invoke.method }
    var runningStep: String? { run?.runningStep }
    var isFinished: Bool { refused || run?.isFinished == true }

    func step() { started()?.step() }

    func runToEnd() { started()?.runToEnd() }

    /// The run, made at the first step in the app's process of that moment.
    private func started() -> PortRun? {
        if let run { return run }
        guard !refused else { return nil }
        guard os.app.isRunning, let plugin = os.app.plugin as? BackgroundServicePlugin else {
            refused = true
            invoke.reject(RPCError.appNotRunning)
            return nil
        }
        let run = PortRun(method(plugin), PortFrame(plugin, invoke: invoke))
        self.run = run
        return run
    }
}
