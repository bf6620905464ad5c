import HostProtocol

/// The seed plugin (`seeds/000_c91113588af2405f.txt`), ported to the emulated OS.
///
/// Same state, same method names, same order of steps; read it beside the seed.
/// Departures are marked `// Port:`. The two that apply everywhere:
/// - Port: one serial owner runs all of this (the seed runs invokes on Tauri's
///   `ipc` queue and the BGTask handlers and `Timer` on the main queue).
/// - Port: `invoke.reject(error: nil)` becomes a JSON-RPC -32000 error whose
///   `data.reason` names the caller, as the contract requires.
final class BackgroundServicePlugin {
    // MARK: - Task Identifiers

    /// Port: `Bundle.main.bundleIdentifier` is `--bundle-id`.
    let bundleIdentifier: String

    var refreshTaskId: String { "\(bundleIdentifier).bg-refresh" }
    var processingTaskId: String { "\(bundleIdentifier).bg-processing" }

    // MARK: - State for BGTask lifecycle management
    // Port: internal, not private, so that the invokes' file and `plugin/state` reach them.

    /// Currently active BGAppRefreshTask, if any.
    var currentRefreshTask: BGAppRefreshTask?
    /// Currently active BGProcessingTask, if any (at most one of the two is non-nil).
    var currentProcessingTask: BGProcessingTask?
    /// Pending cancel invoke, shared between both task types.
    var pendingCancelInvoke: Invoke?
    /// Safety timer, shared between both task types.
    var safetyTimer: EmulatedTimer?
    /// iOS safety timeout for BGAppRefreshTask (default: 28.0 s).
    var safetyTimeout: Double = 28.0
    /// Optional safety timeout for BGProcessingTask; nil or <= 0 means none.
    var processingSafetyTimeoutSecs: Double?
    /// BGAppRefreshTask earliest begin date in minutes from now (default: 15.0).
    var earliestRefreshBeginMinutes: Double = 15.0
    /// BGProcessingTask earliest begin date in minutes from now (default: 15.0).
    var earliestProcessingBeginMinutes: Double = 15.0
    /// BGProcessingTask requires external power (default: false).
    var requiresExternalPower = false
    /// BGProcessingTask requires network connectivity (default: false).
    var requiresNetworkConnectivity = false

    // Port: the seed reaches these through singletons (`BGTaskScheduler.shared`,
    // the main run loop, `UNUserNotificationCenter`, `Logger`); here they are injected.
    let scheduler: BGTaskScheduler
    let runLoop: TimerRunLoop
    let clock: PluginClock
    let events: EventSink
    let profile: Profile
    let faults: FaultSet
    /// How many times notification authorization was requested (once, at load).
    private(set) var notificationAuthorizationRequests = 0

    init(bundleIdentifier: String, os: EmulatedOS, profile: Profile, faults: FaultSet) {
        self.bundleIdentifier = bundleIdentifier
        self.scheduler = os.scheduler
        self.runLoop = os.runLoop
        self.clock = os.clock
        self.events = os.events
        self.profile = profile
        self.faults = faults
    }

    // MARK: - Plugin Lifecycle

    func load() throws(BGTaskScheduler.RegistrationError) {
        // Request notification permission once.
        // Port: recorded, not shown: there is no notification center here.
        notificationAuthorizationRequests += 1
        // Register both BGTask handlers before the app finishes launching.
        let refreshId = refreshTaskId
        let processingId = processingTaskId
        let refreshOK = try scheduler.register(forTaskWithIdentifier: refreshId, kind: .refresh) { [weak self] task in
            if let bgTask = task as? BGAppRefreshTask {
                self?.handleBackgroundTask(bgTask)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
        let processingOK = try scheduler.register(forTaskWithIdentifier: processingId, kind: .processing) { [weak self] task in
            if let bgTask = task as? BGProcessingTask {
                self?.handleProcessingTask(bgTask)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
        // Port: the seed ignores `register`'s result; we say why a launch will never come.
        for (id, ok) in [(refreshId, refreshOK), (processingId, processingOK)] where !ok {
            events.log("BGTaskScheduler.register refused \(id): it is not in BGTaskSchedulerPermittedIdentifiers")
        }
    }

    // MARK: - BGAppRefreshTask Handler

    private func handleBackgroundTask(_ task: BGAppRefreshTask) {
        self.currentRefreshTask = task
        task.expirationHandler = { [weak self] in
            self?.handleExpiration()
        }
        // Always start safety timer for refresh tasks (default: 28s)
        startSafetyTimer(with: safetyTimeout)
    }

    // MARK: - BGProcessingTask Handler

    private func handleProcessingTask(_ task: BGProcessingTask) {
        self.currentProcessingTask = task
        task.expirationHandler = { [weak self] in
            self?.handleExpiration()
        }
        // Only start safety timer for processing tasks if an explicit timeout was configured
        if let timeout = processingSafetyTimeoutSecs, timeout > 0 {
            startSafetyTimer(with: timeout)
        } else if faults.contains(.processingTimerAlways) {
            startSafetyTimer(with: safetyTimeout)
        }
    }

    // MARK: - Expiration Handler (signals Rust to cancel)

    private func handleExpiration() {
        // Resolve pending cancel invoke (unblocks Rust thread)
        if let invoke = pendingCancelInvoke {
            invoke.resolve()
            pendingCancelInvoke = nil
        }
        if faults.contains(.expirationLeavesTask) { return }
        // Complete whichever task is active — nil out BEFORE completing
        // to prevent double-completion if completeBgTask races in.
        completeActiveTask(success: false)
        // Schedule next tasks
        if !faults.contains(.expirationNoReschedule) { scheduleNext() }
        // Clear remaining state
        cleanup()
    }

    // MARK: - Safety Timer

    private func startSafetyTimer(with interval: Double) {
        safetyTimer?.invalidate()
        safetyTimer = runLoop.scheduledTimer(
            withTimeInterval: interval, repeats: false, observer: safetyTimerObserver
        ) { [weak self] _ in
            self?.handleSafetyTimerExpiration()
        }
    }

    private func handleSafetyTimerExpiration() {
        // Force-complete task if Rust never called completeBgTask
        if currentRefreshTask != nil || currentProcessingTask != nil {
            // Resolve pending cancel invoke (unblocks Rust thread)
            if let invoke = pendingCancelInvoke {
                invoke.resolve()
                pendingCancelInvoke = nil
            }
            // Complete whichever task is active — nil out BEFORE completing
            completeActiveTask(success: false)
            // Schedule next tasks
            scheduleNext()
            // Clear remaining state
            cleanup()
        }
    }

    /// Fault `config-not-persisted` only: forget the stored config.
    func resetConfigToDefaults() {
        safetyTimeout = 28.0
        processingSafetyTimeoutSecs = nil
        earliestRefreshBeginMinutes = 15.0
        earliestProcessingBeginMinutes = 15.0
        requiresExternalPower = false
        requiresNetworkConnectivity = false
    }

    // MARK: - Cleanup

    func cleanup() {
        currentRefreshTask = nil
        currentProcessingTask = nil
        pendingCancelInvoke = nil
        safetyTimer?.invalidate()
        safetyTimer = nil
    }
}
