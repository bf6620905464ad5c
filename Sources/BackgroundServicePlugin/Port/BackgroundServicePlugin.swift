import EmulatedIOS
import HostProtocol

/// The seed plugin (`seeds/000_c91113588af2405f.txt`), ported to the emulated OS: the same
/// state, methods and statements, in the seed's order; read it beside the seed. Each method is
/// a program of steps named after its statements (`step("currentRefreshTask = nil") { … }`, `$0`
/// the run's ``PortFrame``), run to its end at once under `--dispatch serial`, interleaved with
/// another queue's steps under `--dispatch tauri` (``Dispatcher``). Departures are `// Port:`;
/// everywhere: `invoke.reject(error: nil)` is a -32000 error whose `data.reason` names the caller,
/// and the seed's singletons (`BGTaskScheduler.shared`, the main run loop and queue, `Logger`,
/// `UNUserNotificationCenter`) are injected.
final class BackgroundServicePlugin: StepWriting {
    typealias Frame = PortFrame

    // MARK: - Task Identifiers (`refreshTaskId`, `processingTaskId`: in BackgroundServicePlugin+Scheduling.swift)
    /// Port: `Bundle.main.bundleIdentifier` is `--bundle-id`.
    let bundleIdentifier: String

    // MARK: - State for BGTask lifecycle management
    // Port: `private(set)`: `scheduleNext` and `plugin/state` read it from other files; all writes are here.
    /// Currently active BGAppRefreshTask, if any.
    private(set) var currentRefreshTask: BGAppRefreshTask?
    /// Currently active BGProcessingTask, if any (at most one of the two is non-nil).
    private(set) var currentProcessingTask: BGProcessingTask?
    /// Pending cancel invoke, shared between both task types.
    private(set) var pendingCancelInvoke: Invoke?
    /// Safety timer, shared between both task types.
    private(set) var safetyTimer: EmulatedTimer?
    /// iOS safety timeout for BGAppRefreshTask (default: 28.0 s).
    private(set) var safetyTimeout: Double = 28.0
    /// Optional safety timeout for BGProcessingTask; nil or <= 0 means none.
    private(set) var processingSafetyTimeoutSecs: Double?
    /// BGAppRefreshTask earliest begin date in minutes from now (default: 15.0).
    private(set) var earliestRefreshBeginMinutes: Double = 15.0
    /// BGProcessingTask earliest begin date in minutes from now (default: 15.0).
    private(set) var earliestProcessingBeginMinutes: Double = 15.0
    /// BGProcessingTask requires external power (default: false).
    private(set) var requiresExternalPower = false
    /// BGProcessingTask requires network connectivity (default: false).
    private(set) var requiresNetworkConnectivity = false

    // Port: what the seed reaches through singletons, injected.
    let scheduler: BGTaskScheduler, runLoop: TimerRunLoop, clock: PluginClock, events: EventSink, dispatcher: Dispatcher
    let notificationCenter = UserNotificationCenter()
    /// Port: set when the app's process ends (`--os ios`): this instance's queued jobs never run on.
    var processEnded = false
    /// Port: `load` registered the launch handlers in this process (read under `--profile strict` only).
    var handlersRegistered = false
    let profile: Profile
    /// Test-only changes to the programs (`Mutants/`), and per mutation the steps it changed.
    private(set) var mutations: [StepMutation<PortFrame>] = []
    var mutationMatches: [Int] = []
    /// Where programs built by an earlier instance are kept (nil: this one builds its own).
    let library: ProgramLibrary?

    init(
        bundleIdentifier: String, os: EmulatedOS, profile: Profile, dispatcher: Dispatcher,
        mutations: (BackgroundServicePlugin) -> [StepMutation<PortFrame>] = { _ in [] }, library: ProgramLibrary? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.library = library
        (scheduler, runLoop, clock, events) = (os.scheduler, os.runLoop, os.clock, os.events)
        (self.profile, self.dispatcher) = (profile, dispatcher)
        self.mutations = mutations(self)
        buildPrograms()
    }

    // MARK: - BGAppRefreshTask Handler
    lazy var handleBackgroundTask = program("handleBackgroundTask") {
        step("self.currentRefreshTask = task") { $0.currentRefreshTask = $0.task as? BGAppRefreshTask }
        step("task.expirationHandler = { [weak self] in self?.handleExpiration() }") { $0.setExpirationHandler() }
        // Always start safety timer for refresh tasks (default: 28s)
        startSafetyTimer(with: "safetyTimeout") { $0.safetyTimeout }
    }

    // MARK: - BGProcessingTask Handler
    lazy var handleProcessingTask = program("handleProcessingTask") {
        step("self.currentProcessingTask = task") { $0.currentProcessingTask = $0.task as? BGProcessingTask }
        step("task.expirationHandler = { [weak self] in self?.handleExpiration() }") { $0.setExpirationHandler() }
        // Only start safety timer for processing tasks if an explicit timeout was configured
        when("if let timeout = processingSafetyTimeoutSecs, timeout > 0") {
            bind(&$0.timeout, $0.processingSafetyTimeoutSecs.flatMap { $0 > 0 ? $0 : nil })
        } then: {
            startSafetyTimer(with: "timeout") { $0.timeout ?? 0 }
        }
    }

    // MARK: - Expiration Handler (signals Rust to cancel)
    lazy var handleExpiration = program("handleExpiration") {
        // Resolve pending cancel invoke (unblocks Rust thread)
        when("if let invoke = pendingCancelInvoke") {
            bind(&$0.invoke, $0.pendingCancelInvoke)
        } then: {
            step("invoke.resolve()") { $0.invoke?.resolve() }
            step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
        }
        // Complete whichever task is active — nil out BEFORE completing
        // to prevent double-completion if completeBgTask races in.
        // Port: under `strict`, the task that expired (each task's handler passes its own).
        if profile == .strict { completeExpiringTask } else { completeActiveTask(success: "false") { _ in false } }
        // Schedule next tasks
        scheduleNext
        // Clear remaining state
        cleanup
    }

    // MARK: - Safety Timer
    func startSafetyTimer(with interval: String, _ value: @escaping (PortFrame) -> Double) -> Step<PortFrame> {
        call("startSafetyTimer(with: \(interval))") {
            step("safetyTimer?.invalidate()") { $0.safetyTimer?.invalidate() }
            step("safetyTimer = Timer.scheduledTimer(withTimeInterval: interval, repeats: false) { … }") { f in
                f.safetyTimer = f.runLoop.scheduledTimer(
                    withTimeInterval: value(f), repeats: false, observer: f.plugin.safetyTimerObserver
                ) { [weak self = f.plugin] _ in self?.run(\.handleSafetyTimerExpiration) }
            }
        }
    }

    lazy var handleSafetyTimerExpiration = program("handleSafetyTimerExpiration") {
        // Force-complete task if Rust never called completeBgTask
        when("if currentRefreshTask != nil || currentProcessingTask != nil") {
            $0.currentRefreshTask != nil || $0.currentProcessingTask != nil
        } then: {
            // Resolve pending cancel invoke (unblocks Rust thread)
            when("if let invoke = pendingCancelInvoke") {
                bind(&$0.invoke, $0.pendingCancelInvoke)
            } then: {
                step("invoke.resolve()") { $0.invoke?.resolve() }
                step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
            }
            // Complete whichever task is active — nil out BEFORE completing
            completeActiveTask(success: "false") { _ in false }
            // Schedule next tasks
            scheduleNext
            // Clear remaining state
            cleanup
        }
    }

    // MARK: - Cleanup
    lazy var cleanup = call("cleanup()") {
        // Port: under `strict` the task references are cleared only where their task is
        // completed (nil out BEFORE completing), so that no task is let go uncompleted.
        if profile != .strict {
            step("currentRefreshTask = nil") { $0.currentRefreshTask = nil }
            step("currentProcessingTask = nil") { $0.currentProcessingTask = nil }
        }
        step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
        // Port: sent from `ipc` under `--dispatch tauri`, the invalidation may not remove the
        // timer (Apple's `Timer.invalidate()`): a choice of the schedule (`invalidateSafetyTimer()`).
        step("safetyTimer?.invalidate()") { $0.invalidateSafetyTimer() }
        step("safetyTimer = nil") { $0.safetyTimer = nil }
    }

    // MARK: - waitForCancel (Pending Invoke pattern)
    lazy var waitForCancel = program("waitForCancel") {
        // Port: under `strict`, a pending invoke is rejected (`superseded`) rather than
        // dropped; under `seed` the assignment below drops it unanswered, as the seed does.
        if profile == .strict {
            when("if let previous = pendingCancelInvoke") {
                bind(&$0.cancelInvoke, $0.pendingCancelInvoke)
            } then: {
                step("previous.reject(.superseded)") { $0.cancelInvoke?.reject(.superseded) }
            }
        }
        // Always store invoke — it will be resolved by expiration/completion
        // or rejected by stopKeepalive, regardless of BGTask state.
        step("pendingCancelInvoke = invoke") { $0.pendingCancelInvoke = $0.invoke }
    }

    // MARK: - cancelCancelListener (timeout unblock)
    lazy var cancelCancelListener = program("cancelCancelListener") {
        when("if let cancelInvoke = pendingCancelInvoke") {
            bind(&$0.cancelInvoke, $0.pendingCancelInvoke)
        } then: {
            step("cancelInvoke.reject(error: nil)") { $0.cancelInvoke?.reject(.listenerCancelled) }
            step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
        }
        step("invoke.resolve()") { $0.invoke?.resolve() }
    }

    // MARK: - completeBgTask (Rust→Swift completion signal)
    lazy var completeBgTask = program("completeBgTask") {
        // Extract success value from invoke arguments
        exitUnless(#"let success = invoke.args(as: [String: Bool].self)?["success"] ?? true"#) { $0.readSuccess() }
        // Track whether we had an active BGTask before nil-out.
        // Prevents spurious rescheduling when completeBgTask is called
        // after expiration or explicit stop already cleaned up the task.
        step("let hadActiveTask = currentRefreshTask != nil || currentProcessingTask != nil") {
            $0.hadActiveTask = $0.currentRefreshTask != nil || $0.currentProcessingTask != nil
        }
        // Complete whichever task is active — nil out BEFORE completing
        // to prevent double-completion. At most one BGTask is active at a time.
        completeActiveTask(success: "success") { $0.success }
        // Reject pending cancel invoke (unblocks Rust thread)
        when("if let cancelInvoke = pendingCancelInvoke") {
            bind(&$0.cancelInvoke, $0.pendingCancelInvoke)
        } then: {
            step("cancelInvoke.reject(error: nil)") { $0.cancelInvoke?.reject(.completed) }
            step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
        }
        // Only reschedule if we actually completed a background task.
        // Avoids scheduling when called after expiration or stop already handled it.
        when("if hadActiveTask") {
            $0.hadActiveTask
        } then: {
            scheduleNext
        }
        // Clear remaining state
        cleanup
        // Resolve this invoke
        step("invoke.resolve()") { $0.invoke?.resolve() }
    }

    // MARK: - startKeepalive (configurable iOS safety timers)
    lazy var startKeepalive = program("startKeepalive") {
        // Port: the args are read by the profile's rules (`readArgs`); under `strict` a
        // wrong-typed field rejects the invoke (-32602) and nothing changes.
        exitUnless("if let args = invoke.args(as: [String: Any].self)") { $0.readArgs() }
        // BGAppRefreshTask safety timeout (default: 28.0s via PluginConfig)
        step("safetyTimeout = timeout") { f in
            if let timeout = f.args.iosSafetyTimeoutSecs { f.safetyTimeout = timeout }
        }
        // BGProcessingTask safety timeout (default: nil = no cap)
        step("processingSafetyTimeoutSecs = processingTimeout") { f in
            if let processingTimeout = f.args.iosProcessingSafetyTimeoutSecs {
                f.processingSafetyTimeoutSecs = processingTimeout
            }
        }
        // BGAppRefreshTask earliest begin date in minutes
        step("earliestRefreshBeginMinutes = minutes") { f in
            if let minutes = f.args.iosEarliestRefreshBeginMinutes { f.earliestRefreshBeginMinutes = minutes }
        }
        // BGProcessingTask earliest begin date in minutes
        step("earliestProcessingBeginMinutes = minutes") { f in
            if let minutes = f.args.iosEarliestProcessingBeginMinutes { f.earliestProcessingBeginMinutes = minutes }
        }
        // BGProcessingTask requires external power
        step("requiresExternalPower = power") { f in
            if let power = f.args.iosRequiresExternalPower { f.requiresExternalPower = power }
        }
        // BGProcessingTask requires network connectivity
        step("requiresNetworkConnectivity = network") { f in
            if let network = f.args.iosRequiresNetworkConnectivity { f.requiresNetworkConnectivity = network }
        }
        scheduleNext
        step("invoke.resolve()") { $0.invoke?.resolve() }
    }

    // MARK: - stopKeepalive (clean up active task)
    lazy var stopKeepalive = program("stopKeepalive") {
        // Cancel any pending schedules for both task types
        step("BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: refreshTaskId)") {
            $0.scheduler.cancel(taskRequestWithIdentifier: $0.refreshTaskId)
        }
        step("BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: processingTaskId)") {
            $0.scheduler.cancel(taskRequestWithIdentifier: $0.processingTaskId)
        }
        // Reject pending cancel invoke unconditionally (unblocks Rust thread)
        // This must happen even when no BGTask is active (foreground stop).
        when("if let cancelInvoke = pendingCancelInvoke") {
            bind(&$0.cancelInvoke, $0.pendingCancelInvoke)
        } then: {
            step("cancelInvoke.reject(error: nil)") { $0.cancelInvoke?.reject(.stopped) }
            step("pendingCancelInvoke = nil") { $0.pendingCancelInvoke = nil }
        }
        // If a BGTask is active, nil out and complete it — prevents
        // completeBgTask from double-completing if it races in.
        completeActiveTask(success: "false") { _ in false }
        // Clear remaining state
        cleanup
        step("invoke.resolve()") { $0.invoke?.resolve() }
    }

    /// The seed's block, four times: "Complete whichever task is active — nil out BEFORE completing".
    /// Port: under `strict`, every active task (two may run at once): refresh, then processing.
    private func completeActiveTask(success text: String, _ success: @escaping (PortFrame) -> Bool) -> Step<PortFrame> {
        if profile == .strict {
            return call("completeEveryActiveTask(success: \(text))") {
                when("if let task = currentRefreshTask") {
                    bind(&$0.task, $0.currentRefreshTask)
                } then: {
                    step("currentRefreshTask = nil") { $0.currentRefreshTask = nil }
                    step("task.setTaskCompleted(success: \(text))") { $0.task?.setTaskCompleted(success: success($0)) }
                }
                when("if let task = currentProcessingTask") {
                    bind(&$0.task, $0.currentProcessingTask)
                } then: {
                    step("currentProcessingTask = nil") { $0.currentProcessingTask = nil }
                    step("task.setTaskCompleted(success: \(text))") { $0.task?.setTaskCompleted(success: success($0)) }
                }
            }
        }
        return when("if let task = currentRefreshTask") {
            bind(&$0.task, $0.currentRefreshTask)
        } then: {
            step("currentRefreshTask = nil") { $0.currentRefreshTask = nil }
            step("task.setTaskCompleted(success: \(text))") { $0.task?.setTaskCompleted(success: success($0)) }
        } else: {
            when("else if let task = currentProcessingTask") {
                bind(&$0.task, $0.currentProcessingTask)
            } then: {
                step("currentProcessingTask = nil") { $0.currentProcessingTask = nil }
                step("task.setTaskCompleted(success: \(text))") { $0.task?.setTaskCompleted(success: success($0)) }
            }
        }
    }

    /// Port: `strict` only: the expiring task (the frame's, passed by its own handler) is
    /// completed, and only its reference cleared; another task running beside it stays held.
    private var completeExpiringTask: Step<PortFrame> {
        step("expiringTask.setTaskCompleted(success: false)") { f in
            guard let task = f.task else { return }
            if f.currentRefreshTask === task { f.currentRefreshTask = nil }
            if f.currentProcessingTask === task { f.currentProcessingTask = nil }
            task.setTaskCompleted(success: false)
        }
    }

    // MARK: - Port seams (no counterpart in the seed)
    /// `plugin/reset` and `shutdown`: reject the pending cancel invoke with `reason`.
    func rejectPendingCancelInvoke(_ reason: RejectReason) {
        pendingCancelInvoke?.reject(reason)
        pendingCancelInvoke = nil
    }

    /// Mutants only (`config-not-persisted`, `reset-keeps-config`): replaces the six stored values.
    func restore(_ config: PluginConfig) {
        safetyTimeout = config.iosSafetyTimeoutSecs
        processingSafetyTimeoutSecs = config.iosProcessingSafetyTimeoutSecs
        earliestRefreshBeginMinutes = config.iosEarliestRefreshBeginMinutes
        earliestProcessingBeginMinutes = config.iosEarliestProcessingBeginMinutes
        requiresExternalPower = config.iosRequiresExternalPower
        requiresNetworkConnectivity = config.iosRequiresNetworkConnectivity
    }
}
