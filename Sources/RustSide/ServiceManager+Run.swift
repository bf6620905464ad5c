import HostProtocol

/// The run a completion callback is being called for (its bridge call records it).
enum CompletingRun {
    @TaskLocal static var run: UInt64?
}

/// The spawned service task (`manager.rs`): init, run, the completion callback and
/// the generation-guarded cleanup, in the real code's order.
extension ServiceManager {
    /// How the service's work ended: its init failed, or its run returned (nil) or failed.
    enum WorkEnd: Sendable {
        case initFailed(String)
        case ran(String?)
    }

    /// The spawned task. The service itself runs in a child task, which `stop`
    /// cancels; what follows the service's end runs here, uncancelled.
    nonisolated func runService(
        _ service: any BackgroundService, generation g: UInt64, token: CancellationToken, callback: OnComplete?
    ) async {
        let context = ServiceContext(generation: g, clock: configuration.clock, token: token, log: configuration.log)
        let work = Task(executorPreference: executor) { () async -> WorkEnd in
            do {
                try await service.initialize(context)
            } catch {
                return .initFailed("initialize failed: \(error)")
            }
            await self.initialized(generation: g)
            do {
                try await service.run(context)
                return .ran(nil)
            } catch is CancellationError {
                return .ran("cancelled")
            } catch {
                return .ran("run failed: \(error)")
            }
        }
        await registerWork(work, generation: g)
        let end = await work.value
        await finish(end, generation: g, token: token, callback: callback)
    }

    private func registerWork(_ work: Task<WorkEnd, Never>, generation g: UInt64) {
        guard g == generation else { return }
        serviceWork = work
        if token == nil || token?.isCancelled == true { work.cancel() }
    }

    /// Initializing → Running, for the current run only, and only from Initializing
    /// (a `Stop` during init leaves it Stopped).
    private func initialized(generation g: UInt64) {
        guard g == generation, state == .initializing else { return }
        state = .running
        emit(.stateChanged(generation: g, .running))
    }

    private func finish(_ end: WorkEnd, generation g: UInt64, token: CancellationToken, callback: OnComplete?) async {
        let failure: String?
        switch end {
        case .initFailed(let f): failure = f
        case .ran(let f): failure = f
        }
        emit(.runEnded(generation: g, success: failure == nil, error: failure, current: g == generation))
        if configuration.behaviour == .strict {
            await finishStrict(generation: g, token: token, callback: callback, failure: failure)
        } else if case .initFailed = end {
            // Init failed: the token and state are cleared first, then the callback (false).
            lateInitFailures.withLock { _ = $0.insert(g) }
            cleanUp(generation: g, failure: failure, initFailed: true)
            await window(generation: g)
            let newer = await raceNewerListener(after: g)
            await complete(generation: g, callback: callback, success: false)
            lateInitFailures.withLock { _ = $0.remove(g) }
            if let newer { configuration.races?.passed(.listenerVsLateCompletion, .second, run: newer) }
            configuration.races?.passed(.runEndVsApp, .first, run: g)
        } else {
            // The callback fires BEFORE the token is cleared (so that a wait for the
            // stop returns only after it ran): while its completeBgTask is in flight,
            // a Start fails "already running" and a Stop succeeds.
            await complete(generation: g, callback: callback, success: failure == nil)
            await window(generation: g)
            cleanUp(generation: g, failure: failure, initFailed: false)
            configuration.races?.passed(.runEndVsApp, .first, run: g)
        }
        // Its completion has raced the Stop that cancelled it, if any: forgotten (a Stop
        // can no longer cancel it: its token is cleared, or a newer run holds the token).
        stoppedRuns.remove(g)
        emit(.runFinished(generation: g))
    }

    /// Between the two halves of a run's end: where the app's next command can land.
    private func window(generation g: UInt64) async {
        await configuration.races?.arrive(.runEndVsApp, .first, run: g)
    }

    /// Calls the run's callback (whatever the generation), at its turn in the races
    /// with the run's listener and with a `Stop` that cancelled the run.
    private func complete(generation g: UInt64, callback: OnComplete?, success: Bool) async {
        guard let callback else { return }
        emit(.completionCallback(generation: g, success: success))
        let races = configuration.races
        // The Stop that cancelled the run has reached its gate already (it does so right
        // after cancelling): that race is settled first, then the one with the listener,
        // whose waitForCancel may not be written yet.
        let stopped = stoppedRuns.contains(g)
        if stopped { await races?.arrive(.stopVsCompletion, .second, run: g) }
        await races?.arrive(.listenerVsCompletion, .second, run: g)
        await CompletingRun.$run.withValue(g) { await callback(success) }
        races?.passed(.listenerVsCompletion, .second, run: g)
        if stopped { races?.passed(.stopVsCompletion, .second, run: g) }
    }

    /// The generation-guarded cleanup: a late cleanup of an old run never touches a
    /// newer run's token or state.
    private func cleanUp(generation g: UInt64, failure: String?, initFailed: Bool) {
        guard g == generation else { return }
        token = nil
        let from: Set<ServiceState> = initFailed ? [.initializing] : [.initializing, .running]
        if from.contains(state) {
            state = .stopped
            emit(.stateChanged(generation: g, .stopped))
        }
        if let failure { lastError = failure }
    }

    /// Strict: the end of a run is one command of the loop (a Start or Stop arriving
    /// meanwhile waits, then sees the run ended); only the current run completes the
    /// background task; a run that ended on its own also releases the keepalive, so
    /// that no background launch comes while no service runs.
    private func finishStrict(
        generation g: UInt64, token: CancellationToken, callback: OnComplete?, failure: String?
    ) async {
        await acquireTurn()
        defer { releaseTurn() }
        guard g == generation else {
            emit(.completionSkipped(generation: g))
            return
        }
        await complete(generation: g, callback: callback, success: failure == nil)
        if !token.isCancelled, self.token === token {
            emit(.keepaliveReleased(generation: g))
            if case .failure(let error) = await bridge.call(StopKeepalive.name, params: nil, run: g) {
                configuration.log("stopKeepalive after the run ended failed: \(error)")
                emit(.stopKeepaliveFailed(error: error.description))
            }
        }
        cleanUp(generation: g, failure: failure, initFailed: false)
    }
}
