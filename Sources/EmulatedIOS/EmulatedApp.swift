/// The app as the emulated OS sees it: what the OS calls when a process of the app
/// starts and when it ends. Everything else the app does, it does through the OS's
/// own API (``BGTaskScheduler``, ``BGTask``, ``TimerRunLoop``), as an iOS app would.
///
/// The plugin's port conforms; the OS never sees the port's type, so the emulated OS
/// builds, runs and is tested without it (an ``EmulatedOS`` with no app factory runs
/// processes that register nothing).
///
/// ```swift
/// final class TinyApp: EmulatedApp {
///     let scheduler: BGTaskScheduler
///     init(os: EmulatedOS) { scheduler = os.scheduler }
///     func load() throws(BGTaskScheduler.RegistrationError) {
///         try scheduler.register(forTaskWithIdentifier: "com.example.refresh", kind: .refresh) { task in
///             task.setTaskCompleted(success: true)
///         }
///     }
///     func processDidEnd() {}
/// }
/// os.makeApp = { TinyApp(os: $0) }
/// ```
package protocol EmulatedApp: AnyObject {
    /// The app's start-up code: it registers its launch handlers (the plugin's `load()`).
    func load() throws(BGTaskScheduler.RegistrationError)
    /// The process is dying: the app answers the calls it holds (the bridge's calls fail
    /// with `terminated`); nothing else of it runs again.
    func processDidEnd()
    /// Whether the app's code still keeps `task` (a running task it launched) to complete it
    /// later: `plugin/state`'s `ios.runningTasks[].heldByApp`. A running task no app code
    /// holds is left without an owner: nothing will complete it.
    func holds(_ task: BGTask) -> Bool
}

extension EmulatedApp {
    /// An app that says nothing about its references owns every task.
    package func holds(_ task: BGTask) -> Bool { true }
}
