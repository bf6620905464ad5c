import HostProtocol

/// One run of the app's process: what a termination ends and a cold start makes anew.
///
/// It owns what lives in the app's memory: the port (the plugin instance and its
/// state, including the invokes it holds), the process's `BGTaskScheduler.shared`
/// with its registrations, and the main run loop with its timers. Everything that
/// outlives the process (the clock, the pending requests, the device's conditions,
/// the policy) belongs to ``EmulatedOS``.
package final class AppProcess {
    /// The process's `BGTaskScheduler.shared` (its registrations).
    package let scheduler: BGTaskScheduler
    /// The process's main run loop: its timers die with it.
    package let runLoop: TimerRunLoop
    /// The plugin instance, once the app has created it (nil in unit tests of the OS alone).
    package var plugin: (any EmulatedApp)?
    /// Why it was started, and when.
    package let cause: LaunchCause
    package let launchedAt: VirtualTime
    // `@exclusivity(unchecked)` (read on every invoke): plain stores and reads.
    /// Launching until `didFinishLaunching` returns; not running once terminated.
    @exclusivity(unchecked) package private(set) var phase = AppPhase.launching
    /// Why registering a launch handler failed in this process, if it did.
    package var registrationError: String?

    package init(store: TaskRequestStore, clock: PluginClock, faults: OSFaults, cause: LaunchCause) {
        scheduler = BGTaskScheduler(store: store)
        runLoop = TimerRunLoop(clock: clock)
        runLoop.lateByNanoseconds = faults.timerDelayNanoseconds
        self.cause = cause
        launchedAt = clock.now
    }

    /// Whether the process exists (launching or running).
    package var isRunning: Bool { phase != .notRunning }

    /// `didFinishLaunching` returned: registering now is an error.
    package func finishLaunching() {
        scheduler.launchFinished = true
        phase = .running
    }

    /// The process ended.
    package func end() {
        phase = .notRunning
    }
}
