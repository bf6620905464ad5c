import EmulatedIOS
import HostProtocol

/// A Rust caller blocked on the main thread (issue 22): `x-mainThreadCaller: true` in an
/// invoke's params (`--os ios --dispatch tauri`).
///
/// A synchronous `#[tauri::command]` runs on the main thread and calls `run_mobile_plugin`,
/// which waits for the plugin's answer: while the invoke is unanswered, the app's main thread
/// is blocked (``EmulatedOS/blockMainForCaller(cause:waiting:)``). The seed answers on `ipc`
/// and goes free; `--profile strict` hops to `DispatchQueue.main` before answering, and the
/// hop can never run: a deadlock, as on a device, reported as `os/violation {rule:
/// "dispatch.main-deadlock"}`, and, while a task runs, the main-thread watchdog's kill when
/// the allowance passes (the held invoke is then answered `terminated`).
extension PluginEngine {
    /// Blocks main for `invoke`'s caller when its params say so (and the modes allow it).
    func holdMainForCaller(_ invoke: Invoke) {
        guard options.dispatch == .tauri, options.osMode == .ios,
            invoke.args[InvokeMarker.mainThreadCaller]?.boolValue == true
        else { return }
        let what = "\(invoke.method) request \(invoke.id?.description ?? "(notification)")"
        world.os.blockMainForCaller(cause: "a caller on the main thread waits for \(what)") { [weak invoke] in
            invoke.map { !$0.isAnswered } ?? false
        }
        dispatcher.hopDeadlocks = { [unowned self] body in self.reportDeadlock(of: body) }
    }

    /// A hop of `body` onto main while a caller blocks main: the deadlock, reported once per hop.
    private func reportDeadlock(of body: StepJob) -> Bool {
        guard let block = world.os.activeMainBlock, block.isCallerWaiting else { return false }
        world.os.events.violation(
            rule: "dispatch.main-deadlock",
            detail: "\(body.name) hops to DispatchQueue.main before answering while \(block.cause) "
                + "(since \(block.since.decimalSeconds) s): neither can go on, as on a device")
        return true
    }
}
