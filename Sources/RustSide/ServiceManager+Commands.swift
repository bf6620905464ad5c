import HostProtocol
import PluginHost

/// The Tauri commands (`lib.rs`) and the actor's command handlers (`manager.rs`).
extension ServiceManager {
    // MARK: - lib.rs

    /// The Tauri `start` command: `SetOnComplete` with a callback that calls
    /// `completeBgTask(success)`, then `Start`; once `Start` has replied, the cancel
    /// listener is spawned. Throws ``ServiceError/alreadyRunning``,
    /// ``ServiceError/invalidForegroundServiceType(_:)`` or
    /// ``ServiceError/keepaliveFailed(_:)`` (after rolling back).
    public func start(_ config: StartKeepaliveConfig) async throws(ServiceError) {
        let bridge = self.bridge
        // The callback blocks the thread that calls it (the service task's worker)
        // until the plugin answers; its result is ignored (`let _ =` in lib.rs).
        await setOnComplete { success in
            let params: JSONValue = ["success": .bool(success)]
            _ = await bridge.call(CompleteBgTask.name, params: params, run: CompletingRun.run ?? 0)
        }
        let g = try await startCommand(config)
        // Seed: the listener is spawned after Start has replied (strict armed it inside Start).
        if configuration.behaviour == .seed {
            spawnListener(generation: g, timeoutSeconds: config.iosCancelListenerTimeoutSecs, job: nil)
        }
    }

    /// The Tauri `stop` command: `Stop`. Throws ``ServiceError/notRunning``.
    public func stop() async throws(ServiceError) {
        try await stop(origin: .user)
    }

    // MARK: - The actor's commands

    /// `SetOnComplete`: puts `callback` in the slot, replacing what was there. `Start`
    /// takes it out (a run's callback is the one set before its start).
    public func setOnComplete(_ callback: @escaping OnComplete) async {
        await acquireTurn()
        defer { releaseTurn() }
        onComplete = callback
    }

    /// `Start` (`handle_start`): returns the new run's generation.
    func startCommand(_ config: StartKeepaliveConfig) async throws(ServiceError) -> UInt64 {
        await acquireTurn()
        defer { releaseTurn() }
        guard token == nil else { throw refused(.alreadyRunning) }
        // On mobile the type is checked before anything changes and before any plugin call.
        guard ForegroundServiceType.isAllowed(config.foregroundServiceType) else {
            throw refused(.invalidForegroundServiceType(config.foregroundServiceType))
        }
        let newToken = CancellationToken()
        token = newToken
        generation += 1
        let g = generation
        state = .initializing
        lastError = nil
        emit(.startRequested(generation: g))
        emit(.stateChanged(generation: g, .initializing))
        // The callback is taken at spawn: one set while this run goes on is the next run's.
        let callback = onComplete
        onComplete = nil
        if case .failure(let error) = await bridge.call(StartKeepalive.name, params: config.wireParams, run: g) {
            // Rollback: token cleared, idle, the callback back in its slot; the last
            // error stays cleared (it was cleared above).
            token = nil
            state = .idle
            onComplete = callback
            emit(.startFailed(generation: g, error: error.description))
            emit(.rolledBack(generation: g))
            throw ServiceError.keepaliveFailed(error)
        }
        // Strict: the listener's waitForCancel is written before the service can run.
        let armed = configuration.behaviour == .strict ? await armWaitForCancel(generation: g) : nil
        let service = factory()
        Task(executorPreference: executor) { [self] in
            await runService(service, generation: g, token: newToken, callback: callback)
        }
        if let armed {
            spawnListener(generation: g, timeoutSeconds: config.iosCancelListenerTimeoutSecs, job: armed)
        }
        return g
    }

    private func refused(_ error: ServiceError) -> ServiceError {
        emit(.startFailed(generation: generation, error: error.description))
        return error
    }

    /// `Stop` (`handle_stop`), with who asked for it.
    func stop(origin: StopOrigin) async throws(ServiceError) {
        await acquireTurn()
        defer { releaseTurn() }
        emit(.stopRequested(origin))
        if configuration.behaviour == .strict, let g = origin.generation, g != generation || token == nil {
            // Strict: a stop meant for an earlier run never stops a newer one.
            let why = g != generation ? "run \(g) is not the current run \(generation)" : "run \(g) has already ended"
            emit(.stopIgnored(origin, reason: why))
            return
        }
        let handoff = await raceHandoff()
        defer { if let g = handoff { configuration.races?.passed(.handoffVsStop, .second, run: g) } }
        guard let current = token else {
            emit(.stopFailed(origin, error: ServiceError.notRunning.description))
            throw ServiceError.notRunning
        }
        token = nil
        current.cancel()
        // Departs: the service's Swift task is cancelled too, so that a sleeping service wakes
        // as one that selects on `shutdown.cancelled()` does.
        serviceWork?.cancel()
        state = .stopped
        lastError = nil
        let g = generation
        stoppedRuns.insert(g)
        emit(.stateChanged(generation: g, .stopped))
        // The cancelled service may finish on another worker before this call is written.
        let result = await bridge.call(StopKeepalive.name, params: nil, run: g, race: turn(.stopVsCompletion, .first))
        if case .failure(let error) = result {
            configuration.log("stopKeepalive failed: \(error)")
            emit(.stopKeepaliveFailed(error: error.description))
        }
    }
}
