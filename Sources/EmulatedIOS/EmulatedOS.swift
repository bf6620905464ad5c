import HostProtocol

/// The emulated operating system around the app: what outlives the app's process.
///
/// It holds the clock, the system's pending requests (``TaskRequestStore``), the
/// device's conditions, the completion ledger, the running tasks and, under
/// `--os ios`, the policy's state (``IOSSystem``). The app's process
/// (``AppProcess``: the plugin, its registrations, its run loop) is replaced when
/// the app is terminated and started again. The controls the host uses to play the
/// OS (`os/launch`, `os/expire`, `os/advanceTime`, `os/setConditions`, and under
/// `--os ios` `os/terminate`, `os/openApp`, `os/explain`, `os/setPolicy`) land here.
package final class EmulatedOS {
    package let clock: PluginClock
    package let store: TaskRequestStore
    package let ledger: CompletionLedger
    package let events: EventSink
    package let device = Device()
    package let faults: OSFaults
    /// What this mode decides by itself: ``ManualPolicy`` or ``IOSSystem``.
    package let policy: any OSPolicy
    /// The `--os ios` system (the iOS policy and its state), for the iOS-only controls; nil
    /// under `--os manual`.
    package let ios: IOSSystem?
    // `@exclusivity(unchecked)` (read on every invoke): no access spans a call into code
    // that reaches it; replacing the process releases the old one, whose release does not.
    /// The app's current process (or the last one, once it has ended).
    @exclusivity(unchecked) package private(set) var app: AppProcess
    /// Creates the plugin instance inside a new process (set by ``PluginWorld``).
    package var makePlugin: ((EmulatedOS) -> any EmulatedApp)?
    /// The tasks launched and not yet completed, in launch order: at most one under
    /// `--os manual`, up to the policy's `maxConcurrentTasks` under `--os ios`
    /// (`EmulatedOS+Concurrency.swift`).
    package internal(set) var runningTasks: [BGTask] = []
    private var nextTaskSerial: UInt64 = 0
    /// `os/blockMain`: when the app's main thread is busy (``MainBlock``), nil when it is free.
    package var mainBlock: MainBlock?

    package init(
        clock: PluginClock, infoPlist: InfoPlist, events: EventSink, faults: OSFaults, ios: IOSSystem? = nil,
        policy other: (any OSPolicy)? = nil
    ) {
        self.clock = clock
        self.events = events
        self.faults = faults
        self.ios = ios
        self.policy = ios ?? other ?? ManualPolicy()
        self.ledger = CompletionLedger(events: events, clock: clock)
        self.store = TaskRequestStore(infoPlist: infoPlist, device: device, events: events, faults: faults)
        self.app = AppProcess(store: store, clock: clock, faults: faults, cause: .user)
        ledger.onFirstCompletion = { [unowned self] task in
            if let index = self.runningTasks.firstIndex(where: { $0 === task }) {
                self.runningTasks.remove(at: index)
                self.policy.taskEnded(task, in: self)
            }
        }
        policy.install(on: self)
    }

    /// The identifiers the current process registered, for messages: `registered:
    /// com.example.app.bg-processing, com.example.app.bg-refresh` (sorted), or `none is registered`.
    package var registeredList: String {
        let names = scheduler.registrations.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names.isEmpty ? "none is registered" : "registered: " + names.joined(separator: ", ")
    }

    /// `-32602`'s words for an identifier with no launch handler.
    package func unregistered(_ identifier: String) -> String {
        "no launch handler is registered for \"\(identifier)\" (\(registeredList))"
    }

    /// The current process's `BGTaskScheduler.shared`.
    package var scheduler: BGTaskScheduler { app.scheduler }
    /// The current process's main run loop.
    package var runLoop: TimerRunLoop { app.runLoop }
    package var conditions: Conditions { device.conditions }

    /// Replaces the process (a launch of the app); ``AppLifecycle`` decides when.
    package func replaceProcess(cause: LaunchCause) -> AppProcess {
        app = AppProcess(store: store, clock: clock, faults: faults, cause: cause)
        return app
    }

    // MARK: - Launch and expiration

    /// `os/launch`: launches the pending request for `identifier` now, ignoring its
    /// earliest begin date (the debugger's simulate-launch) and, under `--os ios`,
    /// every factor of the launch decision; with the app not running, it cold-starts it first.
    package func launch(identifier: String) throws(RPCError) -> OSLaunch.Result {
        try refuseWhileMainBlocked("launch \(identifier)")
        try policy.prepareLaunch(of: identifier, in: self)
        guard scheduler.registrations[identifier] != nil else {
            throw RPCError.invalidParams(unregistered(identifier))
        }
        if let refusal = launchRefusal(of: identifier), !faults.contains(.allowConcurrentLaunch) {
            throw RPCError.invalidState("cannot launch \(identifier): \(refusal)")
        }
        guard store.pendingRequest(identifier) != nil else {
            throw RPCError.invalidState("cannot launch \(identifier): no request for it is pending")
        }
        let task = launchPending(identifier)
        return OSLaunch.Result(identifier: task.identifier, kind: task.kind, at: task.launchedAt)
    }

    /// Takes the pending request and runs its launch handler with a new task.
    @discardableResult
    package func launchPending(_ identifier: String) -> BGTask {
        let request = store.takeForLaunch(identifier)!
        nextTaskSerial += 1
        let task: BGTask =
            request is BGProcessingTaskRequest
            ? BGProcessingTask(identifier: identifier, launchedAt: clock.now, serial: nextTaskSerial, ledger: ledger)
            : BGAppRefreshTask(identifier: identifier, launchedAt: clock.now, serial: nextTaskSerial, ledger: ledger)
        // Only the `allow-concurrent-launch` fault launches past the limit: the OS then
        // loses track of the tasks that ran (as it did with one task slot).
        if launchRefusal(of: identifier) != nil { forgetRunningTasks() }
        runningTasks.append(task)
        events.counters.launched += 1
        policy.taskLaunched(task, request: request, in: self)
        events.send(TaskLaunchedEvent.self, .init(identifier: identifier, at: clock.now, kind: task.kind))
        runLaunchHandler(for: task)
        return task
    }

    /// `os/expire`: runs the running task's expiration handler (the task of that identifier).
    package func expire(identifier: String) throws(RPCError) {
        try refuseWhileMainBlocked("expire \(identifier)")
        // (Under `--os manual` the app always runs; under `--os ios` it may not, and then
        // its registrations are gone with it.)
        if app.isRunning {
            guard scheduler.registrations[identifier] != nil else {
                throw RPCError.invalidParams(unregistered(identifier))
            }
        }
        guard let task = runningTask(identifier) else {
            throw RPCError.invalidState("cannot expire \(identifier): it is not running")
        }
        guard !task.hasExpired else {
            throw RPCError.invalidState("cannot expire \(identifier): its expiration handler already ran")
        }
        expire(task, cause: .simulated)
    }

    /// The one expiration path (`os/expire` and, under `--os ios`, budgets and lost
    /// constraints): report it, run the handler; under `--os ios`, a task still not
    /// completed afterwards starts its watchdog's grace period.
    package func expire(_ task: BGTask, cause: ExpirationCause) {
        guard isRunning(task), !task.hasExpired else { return }
        task.hasExpired = true
        events.counters.expired += 1
        let reported = policy.reportsExpirationCause ? cause : nil
        events.send(TaskExpiredEvent.self, .init(identifier: task.identifier, at: clock.now, cause: reported))
        policy.taskExpiring(task, in: self)
        runExpirationHandler(of: task)
        if isRunning(task) { policy.expirationHandlerReturned(task, in: self) }
    }

    // MARK: - Conditions and direct scheduler calls

    /// `os/setConditions`: applies the given fields; launches nothing.
    package func setConditions(_ params: OSSetConditions.Params) -> Conditions {
        if let v = params.backgroundRefreshStatus { device.conditions.backgroundRefreshStatus = v }
        if let v = params.externalPower { device.conditions.externalPower = v }
        if let v = params.networkConnected { device.conditions.networkConnected = v }
        if let v = params.autoLaunch { device.conditions.autoLaunch = v }
        return device.conditions
    }

    /// `os/submit`: a direct `submit(_:)`; failures are -32001.
    package func submit(_ params: OSSubmit.Params) throws(RPCError) -> TaskRequestInfo {
        let request: BGTaskRequest
        if params.kind == .processing {
            let p = BGProcessingTaskRequest(identifier: params.identifier)
            p.requiresExternalPower = params.requiresExternalPower ?? false
            p.requiresNetworkConnectivity = params.requiresNetworkConnectivity ?? false
            request = p
        } else {
            request = BGAppRefreshTaskRequest(identifier: params.identifier)
        }
        request.earliestBeginDate = params.earliestBeginDate
        do {
            try store.submit(request)
        } catch {
            throw RPCError.scheduler(error, identifier: params.identifier)
        }
        return request.info
    }
}
