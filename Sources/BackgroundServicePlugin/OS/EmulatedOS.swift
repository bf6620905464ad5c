import HostProtocol

/// The emulated device's settings, shared by the scheduler and the OS controls.
final class Device {
    var conditions = Conditions.defaults
}

/// The emulated operating system around the plugin: clock, run loop, scheduler,
/// device conditions, the running task, and the controls the host uses to play
/// the OS (`os/launch`, `os/expire`, `os/advanceTime`, `os/setConditions`).
final class EmulatedOS {
    let clock: PluginClock
    let runLoop: TimerRunLoop
    let scheduler: BGTaskScheduler
    let ledger: CompletionLedger
    let events: EventSink
    let device = Device()
    /// The task launched and not yet completed (the OS launches one at a time).
    private(set) var runningTask: BGTask?
    private var nextTaskSerial: UInt64 = 0
    let faults: FaultSet

    init(clock: PluginClock, infoPlist: InfoPlist, events: EventSink, faults: FaultSet) {
        self.clock = clock
        self.events = events
        self.faults = faults
        self.runLoop = TimerRunLoop(clock: clock)
        self.ledger = CompletionLedger(events: events, clock: clock)
        self.scheduler = BGTaskScheduler(infoPlist: infoPlist, device: device, events: events, faults: faults)
        ledger.onFirstCompletion = { [unowned self] task in
            if self.runningTask === task { self.runningTask = nil }
        }
    }

    var conditions: Conditions { device.conditions }

    // MARK: - Launch and expiration

    /// `os/launch`: launches the pending request for `identifier` now, ignoring its
    /// earliest begin date (the debugger's simulate-launch).
    func launch(identifier: String) throws(RPCError) -> OSLaunch.Result {
        guard scheduler.registrations[identifier] != nil else {
            throw RPCError.invalidParams("no launch handler is registered for \"\(identifier)\"")
        }
        if let running = runningTask, !faults.contains(.allowConcurrentLaunch) {
            throw RPCError.invalidState("cannot launch \(identifier): \(running.identifier) is still running (the OS runs one task at a time)")
        }
        guard scheduler.pendingRequest(identifier) != nil else {
            throw RPCError.invalidState("cannot launch \(identifier): no request for it is pending")
        }
        let task = launchPending(identifier)
        return OSLaunch.Result(identifier: task.identifier, kind: task.kind, at: task.launchedAt)
    }

    /// Takes the pending request and runs its launch handler with a new task.
    @discardableResult
    private func launchPending(_ identifier: String) -> BGTask {
        let request = scheduler.takeForLaunch(identifier)!
        nextTaskSerial += 1
        let task: BGTask = request is BGProcessingTaskRequest
            ? BGProcessingTask(identifier: identifier, launchedAt: clock.now, serial: nextTaskSerial, ledger: ledger)
            : BGAppRefreshTask(identifier: identifier, launchedAt: clock.now, serial: nextTaskSerial, ledger: ledger)
        runningTask = task
        events.counters.launched += 1
        events.send(TaskLaunchedEvent.self, .init(identifier: identifier, at: clock.now, kind: task.kind))
        scheduler.registrations[identifier]!.launchHandler(task)
        return task
    }

    /// `os/expire`: runs the running task's expiration handler.
    func expire(identifier: String) throws(RPCError) {
        guard scheduler.registrations[identifier] != nil else {
            throw RPCError.invalidParams("no launch handler is registered for \"\(identifier)\"")
        }
        guard let task = runningTask, task.identifier == identifier else {
            throw RPCError.invalidState("cannot expire \(identifier): it is not running")
        }
        guard !task.hasExpired else {
            throw RPCError.invalidState("cannot expire \(identifier): its expiration handler already ran")
        }
        task.hasExpired = true
        events.counters.expired += 1
        events.send(TaskExpiredEvent.self, .init(identifier: identifier, at: clock.now))
        task.expirationHandler?()
    }

    // MARK: - Time

    /// `os/advanceTime` (virtual clock only).
    func advanceTime(by duration: VirtualTime) throws(RPCError) -> VirtualTime {
        guard clock.kind == .virtual else {
            throw RPCError.invalidState("os/advanceTime needs the virtual clock; this plugin runs --clock real")
        }
        guard advance(to: clock.now.adding(nanoseconds: duration.nanoseconds)) else {
            var error = RPCError.invalidState(
                "os/advanceTime stopped at \(clock.now.decimalSeconds) s after \(EmulatedOS.maxEventsPerAdvance) timer firings and launches; advance again to go on")
            error.data = ["now": clock.now.json]
            throw error
        }
        return clock.now
    }

    /// Most timer firings plus launches one advance performs. With a safety timer of
    /// 0 s (0.1 ms) and begin dates of 0 minutes under auto-launch, every 0.1 ms of
    /// virtual time launches and ends a task; the limit keeps one call bounded.
    static let maxEventsPerAdvance = 1000

    /// Moves the clock to `target`, firing each due timer and (with `autoLaunch`)
    /// launching each eligible request at its own time. At equal times timers fire
    /// before launches, timers in creation order, refresh before processing.
    /// Returns false when it stopped early, at the time of its last event, after
    /// ``maxEventsPerAdvance`` firings and launches.
    @discardableResult
    func advance(to target: VirtualTime) -> Bool {
        var events = 0
        while true {
            let timer = runLoop.nextTimer()
            let launch = nextAutoLaunch()
            let due = timer.map { $0.fireDate <= target } == true || launch.map { $0.at <= target } == true
            if due, events == EmulatedOS.maxEventsPerAdvance { return false }
            if let timer, timer.fireDate <= target, launch.map({ timer.fireDate <= $0.at }) ?? true {
                clock.set(timer.fireDate)
                timer.fire()
            } else if let launch, launch.at <= target {
                clock.set(launch.at)
                launchPending(launch.identifier)
            } else {
                break
            }
            events += 1
        }
        clock.set(target)
        return true
    }

    /// The next request `autoLaunch` would launch, and when.
    private func nextAutoLaunch() -> (identifier: String, at: VirtualTime)? {
        guard conditions.autoLaunch, runningTask == nil else { return nil }
        var best: (identifier: String, at: VirtualTime, rank: Int)?
        for request in scheduler.pendingTaskRequests {
            // A request `os/submit` made for an identifier with no launch handler is
            // never launched (Apple's system would crash the app; `os/launch` says -32602).
            guard scheduler.registrations[request.identifier] != nil else { continue }
            if let processing = request as? BGProcessingTaskRequest, !processing.constraintsMet(by: conditions),
                !faults.contains(.autoLaunchIgnoresConstraints)
            {
                continue
            }
            let at = max(request.earliestBeginDate ?? clock.now, clock.now)
            let rank = request.kind == .refresh ? 0 : 1
            if let b = best, (b.at, b.rank) <= (at, rank) { continue }
            best = (request.identifier, at, rank)
        }
        return best.map { ($0.identifier, $0.at) }
    }

    /// The next time something is due (real clock: when to wake up).
    func nextDueTime() -> VirtualTime? {
        [runLoop.nextTimer()?.fireDate, nextAutoLaunch()?.at].compactMap { $0 }.min()
    }

    // MARK: - Conditions and direct scheduler calls

    /// `os/setConditions`: applies the given fields; launches nothing.
    func setConditions(_ params: OSSetConditions.Params) -> Conditions {
        if let v = params.backgroundRefreshStatus { device.conditions.backgroundRefreshStatus = v }
        if let v = params.externalPower { device.conditions.externalPower = v }
        if let v = params.networkConnected { device.conditions.networkConnected = v }
        if let v = params.autoLaunch { device.conditions.autoLaunch = v }
        return device.conditions
    }

    /// `os/submit`: a direct `submit(_:)`; failures are -32001.
    func submit(_ params: OSSubmit.Params) throws(RPCError) -> TaskRequestInfo {
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
            try scheduler.submit(request)
        } catch {
            throw RPCError.scheduler(error, identifier: params.identifier)
        }
        return request.info
    }
}
