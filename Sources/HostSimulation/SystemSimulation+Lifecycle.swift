import HostProtocol
import PluginHost
import RustSide

/// App processes under `--os ios`: the Rust side dies with the app and a new one
/// starts with each new process.
///
/// On `os/appTerminated` the current process ends: its client refuses every later
/// call with `terminated` (nothing reaches the plugin), its sleepers wake with an
/// error, and its manager's further steps are not shown (a dead process does
/// nothing); the calls it had pending are answered by the plugin (`terminated`). On
/// `os/appLaunched` a new process starts with a fresh service manager, idle: the
/// Tauri app starts and creates the plugin's Rust side, and nothing starts the service
/// unless the app's own code does (``Options/appStartsServiceAtLaunch``).
extension SystemSimulation {
    func makeProcess(number: Int, cause: LaunchCause, at: VirtualTime = .zero) -> HostAppProcess {
        let lifetime = ProcessLifetime()
        // Under --os manual the app never ends: no lifetime to check, no clock group.
        let ios = info.os == .ios
        let client = BackgroundServiceClient(connection: baseClient.connection, lifetime: ios ? lifetime : nil)
        let sink = ServiceEventSink()
        let processClock: any HostClock = ios ? ProcessClock(base: clock, group: UInt64(number)) : clock
        let manager = ServiceManager(
            client: client, factory: options.serviceFactory,
            configuration: .init(
                behaviour: options.behaviour, clock: processClock, executor: executor,
                onEvent: { sink.forward($0) }, log: { sink.log($0) },
                blockingThreads: options.blockingThreads, races: races.arbiter(process: number)))
        let process = HostAppProcess(
            number: number, cause: cause, startedAt: at, lifetime: lifetime, client: client, manager: manager)
        sink.target = { [weak self, weak process] event in
            guard let self, let process else { return }
            process.tracker.withLock { $0.apply(event) }
            guard !lifetime.isEnded else { return }
            if case .startRequested = event { shared.withLock { $0.serviceMeantToRun = false } }
            append(.service(event))
        }
        sink.logTarget = { [weak self] line in
            if !lifetime.isEnded { self?.append(.note("log: \(line)")) }
        }
        return process
    }

    /// Every app process so far, the first one first.
    public var processes: [HostAppProcess] { shared.withLock { $0.processes } }
    /// How each ended process ended.
    public var terminations: [AppTermination] { shared.withLock { $0.terminations } }
    /// Every process started after the first, with what the host did about the service.
    public var relaunches: [AppRelaunch] { shared.withLock { $0.relaunches } }

    /// Host calls still unanswered that a process wrote before it ended: nothing will
    /// ever resume them unless the plugin answers (it answers the invokes it held).
    public var deadProcessCalls: [(id: RequestID, method: String, process: Int)] {
        let pending = baseClient.connection.pendingCalls
        return shared.withLock { s in
            pending.compactMap { call in
                guard let owner = s.callOwner[call.id], s.processes[owner - 1].lifetime.isEnded else { return nil }
                return (call.id, call.method, owner)
            }
        }
    }

    /// The `waitForCancel` calls the current process waits on.
    public var liveCancelWaits: [RequestID] {
        let pending = baseClient.connection.pendingCalls
        return shared.withLock { s in
            let current = s.processes.count
            return pending.filter { $0.method == WaitForCancel.name && (s.callOwner[$0.id] ?? current) == current }
                .map(\.id)
        }
    }

    /// The lifecycle events, on the reader thread while the driver waits for the call
    /// that caused them (no host job runs meanwhile).
    func lifecycle(_ event: RPCNotification) {
        if event.method == AppTerminatedEvent.name,
            let p = try? AppTerminatedEvent.Params(json: event.params ?? .null)
        {
            processEnded(p)
        } else if event.method == AppLaunchedEvent.name,
            let p = try? AppLaunchedEvent.Params(json: event.params ?? .null)
        {
            processStarted(p)
        } else if event.method == AppStateChangedEvent.name,
            let p = try? AppStateChange(json: event.params ?? .null)
        {
            appStateChanged(p)
        }
    }

    private func processEnded(_ p: AppTerminatedEvent.Params) {
        let process = currentProcess
        process.lifetime.end()
        clock.endGroup(UInt64(process.number))
        let running = process.serviceRunning
        shared.withLock { s in
            s.terminations.append(
                AppTermination(process: process.number, reason: p.reason, at: p.at, serviceWasRunning: running))
            if running { s.serviceMeantToRun = true }
        }
        append(
            .note(
                "app process \(process.number) ended (\(p.reason.rawValue)): its Rust side is gone"
                    + (running ? " with the service running" : "")))
    }

    private func processStarted(_ p: AppLaunchedEvent.Params) {
        let number = shared.withLock { $0.processes.count } + 1
        let process = makeProcess(number: number, cause: p.cause, at: p.at)
        let meant = shared.withLock { s in
            s.processes.append(process)
            return s.serviceMeantToRun
        }
        let how =
            p.cause == .backgroundTask
            ? "cold start into the background for \(p.identifier ?? "a task")"
            : "the user opens the app"
        append(.note("app process \(number) starts (\(how)): a fresh Rust side, its service manager idle"))
        var why: String?
        if let config = options.appStartsServiceAtLaunch {
            append(.note("the app's code starts the service at launch"))
            Task(executorPreference: executor) { [manager = process.manager] in try? await manager.start(config) }
        } else if options.behaviour == .strict {
            why = strictLaunchHook(process, meantToRun: meant)
        }
        shared.withLock { s in
            s.relaunches.append(
                AppRelaunch(
                    process: number, cause: p.cause, at: p.at, identifier: p.identifier, serviceMeantToRun: meant,
                    notResumedBecause: why))
        }
    }

    /// The strict host at a launch where the app does not start the service: it says
    /// why the service is not running (it persists whether the service was meant to
    /// run), and releases the keepalive, which completes the task the app was launched
    /// for and cancels the requests, so that no launch waits for a service that will
    /// not come.
    private func strictLaunchHook(_ process: HostAppProcess, meantToRun: Bool) -> String? {
        var why: String?
        if meantToRun {
            why = "the service was running when the app last ended, and the app does not start it at launch"
            append(.note("strict host: the service is not resumed: \(why!)"))
        }
        append(.note("strict host: no service runs in this process: it releases the keepalive"))
        let client = process.client
        Task(executorPreference: executor) { try? await client.stopKeepalive() }
        return why
    }
}
