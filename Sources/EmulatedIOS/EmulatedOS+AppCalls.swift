import HostProtocol

/// Every place where the OS calls into the app's code, in one file: running a
/// launch handler, running an expiration handler, firing a timer of the app's run
/// loop, loading the plugin when a process starts, and failing the invokes a dying
/// process holds.
///
/// The seed runs its BGTask handlers and its `Timer` on the main queue and its
/// invokes on Tauri's `ipc` queue; a dispatch mode that emulates those queues can
/// route these calls through the main queue here, and nowhere else.
extension EmulatedOS {
    /// Runs the registered launch handler of the current process for a new task.
    package func runLaunchHandler(for task: BGTask) {
        guard let registration = scheduler.registrations[task.identifier] else { return }
        registration.launchHandler(task)
    }

    /// Runs a task's expiration handler (nothing when the app set none).
    package func runExpirationHandler(of task: BGTask) {
        task.expirationHandler?()
    }

    /// Fires a due timer of the app's main run loop.
    package func fire(_ timer: EmulatedTimer) {
        timer.fire()
    }

    /// Creates the plugin in a new process and runs its `load` (registration), before
    /// `didFinishLaunching` returns or, with `loadsLate`, after it, where registering
    /// fails as Apple's `NSInternalInconsistencyException` says. Without a plugin
    /// factory (the OS alone, in unit tests) the process just finishes launching.
    package func loadApp(_ process: AppProcess, loadsLate: Bool) throws(BGTaskScheduler.RegistrationError) {
        guard let makePlugin else {
            process.finishLaunching()
            return
        }
        let plugin = makePlugin(self)
        process.plugin = plugin
        if !loadsLate { try plugin.load() }
        process.finishLaunching()
        if loadsLate { try plugin.load() }
    }

    /// Runs the plugin's `load` again in a running process (Tauri's `onWebviewCreated`:
    /// `EmulatedOS+Webview.swift`).
    package func loadAgain(_ process: AppProcess) throws(BGTaskScheduler.RegistrationError) {
        try process.plugin?.load()
    }

    /// The process is dying: each invoke it holds is answered `-32000` `terminated`
    /// (the bridge's call fails; nothing else in the app runs).
    package func failHeldInvokes(of process: AppProcess) {
        process.plugin?.processDidEnd()
    }
}
