import EmulatedIOS
import HostProtocol

/// The seed's `load` and how its methods reach the queues they run on.
extension BackgroundServicePlugin {
    // MARK: - Plugin Lifecycle

    func load() throws(BGTaskScheduler.RegistrationError) {
        // Port: under `--profile strict`, `load` runs once per process. Tauri runs it again for
        // every new webview (`onWebviewCreated`), and a second `register` is an uncaught
        // NSInternalInconsistencyException (`docs/rules.md`, "Where the port departs").
        if profile == .strict, handlersRegistered { return }
        // Request notification permission once.
        // After this, Rust's Notifier can post notifications freely.
        notificationCenter.requestAuthorization(options: [.alert, .sound, .badge])
        // Register both BGTask handlers before the app finishes launching.
        // Port: `using: .main`: the OS calls them from its jobs on the main queue (``Dispatcher``).
        let refreshId = refreshTaskId
        let processingId = processingTaskId
        let refreshOK = try scheduler.register(forTaskWithIdentifier: refreshId, kind: .refresh) { [weak self] task in
            if let bgTask = task as? BGAppRefreshTask {
                self?.run(\.handleBackgroundTask, task: bgTask)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
        let processingOK = try scheduler.register(forTaskWithIdentifier: processingId, kind: .processing) {
            [weak self] task in
            if let bgTask = task as? BGProcessingTask {
                self?.run(\.handleProcessingTask, task: bgTask)
            } else {
                task.setTaskCompleted(success: false)
            }
        }
        handlersRegistered = true
        // Port: the seed ignores `register`'s result; we say why a launch will never come.
        for (id, ok) in [(refreshId, refreshOK), (processingId, processingOK)] where !ok {
            events.log("BGTaskScheduler.register refused \(id): it is not in BGTaskSchedulerPermittedIdentifiers")
        }
    }

    // MARK: - Port: the bridge and the queues

    /// A seed method called by Tauri (``BridgeCall``), as it calls an `@objc` method: on its
    /// serial `ipc` queue.
    ///
    /// Port: under `--profile strict` the body hops onto the main queue first, as the real
    /// plugin's later versions do (`DispatchQueue.main.async { … }` around every handler body),
    /// so that one queue owns the state and the cross-queue races cannot happen. The call then
    /// finds the app's process when it runs on main, behind the `os/` jobs queued before it.
    static func perform(_ call: BridgeCall, profile: Profile, on dispatcher: Dispatcher) {
        guard profile == .strict else { return dispatcher.asyncIPC(call) }
        dispatcher.asyncIPC(MainHop(call, on: dispatcher))
    }

    /// Runs a handler on the queue that calls it: the OS calls them on the main queue.
    func run(_ handler: KeyPath<BackgroundServicePlugin, StepProgram<PortFrame>>, task: BGTask? = nil) {
        dispatcher.run(PortRun(self[keyPath: handler], PortFrame(self, task: task)))
    }

    /// A seed method as a program, with the test-only mutations made (see `Mutants/`);
    /// without mutations, the one the engine's ``ProgramLibrary`` already built.
    func program(_ name: String, @StepsBuilder<PortFrame> _ body: () -> [Step<PortFrame>]) -> StepProgram<PortFrame> {
        if mutations.isEmpty, let library {
            return library.program(name, profile: profile) { StepProgram(name: name, steps: body()) }
        }
        return StepProgram(name: name, steps: body()).applying(mutations, matched: &mutationMatches)
    }

    /// Builds every program now, when the engine builds the port, so that the mutations are
    /// made (and counted) up front.
    func buildPrograms() {
        _ = [startKeepalive, waitForCancel, completeBgTask, stopKeepalive, cancelCancelListener]
        _ = [handleBackgroundTask, handleProcessingTask, handleExpiration, handleSafetyTimerExpiration]
    }

    // MARK: - Port: what `plugin/state` reads

    /// The port's part of `plugin/state`, read only.
    struct Observed {
        let activeTask: PluginStateSnapshot.ActiveTask?
        /// Whether a `waitForCancel` is pending, and its id.
        let cancelInvokePending: Bool
        let pendingCancelInvokeID: RequestID?
        /// The safety timer's deadline while it is valid.
        let safetyTimerDeadline: VirtualTime?
        let config: PluginConfig
        let notificationAuthorizationRequests: Int
    }

    /// A snapshot of the state, for `plugin/state`.
    var observed: Observed {
        let task: BGTask? = currentRefreshTask ?? currentProcessingTask
        return Observed(
            activeTask: task.map { .init(identifier: $0.identifier, kind: $0.kind, launchedAt: $0.launchedAt) },
            cancelInvokePending: pendingCancelInvoke != nil, pendingCancelInvokeID: pendingCancelInvoke?.id,
            safetyTimerDeadline: safetyTimer.flatMap { $0.isValid ? $0.fireDate : nil },
            config: PluginConfig(
                iosSafetyTimeoutSecs: safetyTimeout, iosProcessingSafetyTimeoutSecs: processingSafetyTimeoutSecs,
                iosEarliestRefreshBeginMinutes: earliestRefreshBeginMinutes,
                iosEarliestProcessingBeginMinutes: earliestProcessingBeginMinutes,
                iosRequiresExternalPower: requiresExternalPower,
                iosRequiresNetworkConnectivity: requiresNetworkConnectivity),
            notificationAuthorizationRequests: notificationCenter.authorizationRequests)
    }

    /// Reports the safety timer's transitions as `plugin/safetyTimer` events.
    var safetyTimerObserver: (SafetyTimerEvent.State, VirtualTime) -> Void {
        { [events] state, deadline in
            events.send(SafetyTimerEvent.self, .init(state: state, deadline: deadline))
        }
    }
}

/// What the emulated OS calls on the app: `load()` above when a process starts, and this
/// when it ends.
extension BackgroundServicePlugin: EmulatedApp {
    /// Port: the app's process ended (`--os ios`): this instance's queued jobs never run on,
    /// and the invoke it holds is answered `-32000` `terminated` (the bridge's call fails).
    func processDidEnd() {
        processEnded = true
        rejectPendingCancelInvoke(.terminated)
        dispatcher.releaseDeadlocked()
    }

    /// Port: whether one of the two task references (seed lines 53, 57) is `task`.
    func holds(_ task: BGTask) -> Bool {
        currentRefreshTask === task || currentProcessingTask === task
    }
}

extension PortFrame {
    /// `task.expirationHandler = { [weak self] in self?.handleExpiration() }`. Port: under
    /// `strict` the handler passes its own task, so that it completes the task that expired
    /// and not whichever is active (two may run at once).
    func setExpirationHandler() {
        let own = plugin.profile == .strict ? task : nil
        task?.expirationHandler = { [weak self = plugin, weak own] in self?.run(\.handleExpiration, task: own) }
    }
}
