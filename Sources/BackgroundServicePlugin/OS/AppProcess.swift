import HostProtocol

/// One run of the app's process: what a termination ends and a cold start makes anew.
///
/// It owns what lives in the app's memory: the port (the plugin instance and its
/// state, including the invokes it holds), the process's `BGTaskScheduler.shared`
/// with its registrations, and the main run loop with its timers. Everything that
/// outlives the process (the clock, the pending requests, the device's conditions,
/// the policy) belongs to ``EmulatedOS``.
final class AppProcess {
    /// The process's `BGTaskScheduler.shared` (its registrations).
    let scheduler: BGTaskScheduler
    /// The process's main run loop: its timers die with it.
    let runLoop: TimerRunLoop
    /// The plugin instance, once the app has created it (nil in unit tests of the OS alone).
    var plugin: BackgroundServicePlugin?
    /// Why it was started, and when.
    let cause: LaunchCause
    let launchedAt: VirtualTime
    /// Launching until `didFinishLaunching` returns; not running once terminated.
    private(set) var phase = AppPhase.launching
    /// Why registering a launch handler failed in this process, if it did.
    var registrationError: String?

    init(store: TaskRequestStore, clock: PluginClock, faults: FaultSet, cause: LaunchCause) {
        scheduler = BGTaskScheduler(store: store)
        runLoop = TimerRunLoop(clock: clock)
        runLoop.lateByNanoseconds = faults.timerDelayNanoseconds
        self.cause = cause
        launchedAt = clock.now
    }

    /// Whether the process exists (launching or running).
    var isRunning: Bool { phase != .notRunning }

    /// `didFinishLaunching` returned: registering now is an error.
    func finishLaunching() {
        scheduler.launchFinished = true
        phase = .running
    }

    /// The process ended.
    func end() {
        phase = .notRunning
    }
}
