import HostProtocol

/// The app calling the Rust side's `start` or `stop` from a synchronous `#[tauri::command]`,
/// which runs on the app's main thread (issue 22).
///
/// The command waits for the actor's answer, and the actor's `startKeepalive` or
/// `stopKeepalive` waits in `run_mobile_plugin` for the plugin's: the main thread is blocked
/// until the plugin answers, and the invoke carries `"x-mainThreadCaller": true`
/// (`TauriBridge+MainThread.swift`). The `seed` Rust side is a blocking API and lets that
/// happen; a plugin that hops to `DispatchQueue.main` before answering (`--profile strict`)
/// then deadlocks. **Departs (strict):** the `strict` Rust side never blocks the main thread
/// on the plugin: its commands are `async` (Tauri runs an `async` command off the main
/// thread), so its invokes never carry the member (docs/host.md, "The strict host").
extension ServiceManager {
    /// The app's next `start` (`startKeepalive`) or `stop` (`stopKeepalive`) is called from
    /// the main thread: the invoke of each of `methods` is marked (seed only).
    public nonisolated func commandFromMainThread(_ methods: Set<String>) {
        guard configuration.behaviour == .seed else { return }
        bridge.callFromMainThread(methods)
    }

    /// The app's command on the main thread has returned: nothing more is marked.
    public nonisolated func mainThreadCommandReturned() {
        bridge.mainThreadReturned()
    }
}
