import HostProtocol

/// The spawned service task: init, run, then the generation-guarded cleanup and
/// the completion callback.
extension ServiceManager {
    /// The spawned task. The service itself runs in a child task, which `stop`
    /// cancels; the cleanup and the completion callback run here, uncancelled,
    /// as the Rust task's code after the service future returns.
    nonisolated func runService(_ service: any BackgroundService, generation g: UInt64, token: CancellationToken) async {
        let context = ServiceContext(generation: g, clock: configuration.clock, token: token, log: configuration.log)
        let work = Task(executorPreference: executor) { () async -> String? in
            await self.setState(.initializing, generation: g)
            do {
                try await service.initialize(context)
            } catch {
                return "initialize failed: \(error)"
            }
            await self.setState(.running, generation: g)
            do {
                try await service.run(context)
                return nil
            } catch is CancellationError {
                return "cancelled"
            } catch {
                return "run failed: \(error)"
            }
        }
        await registerWork(work, generation: g)
        let failure = await work.value
        await runEnded(generation: g, token: token, failure: failure)
    }

    private func registerWork(_ work: Task<String?, Never>, generation g: UInt64) {
        if g == generation {
            serviceWork = work
            if token == nil || token?.isCancelled == true { work.cancel() }
        }
    }

    /// State changes belong to the current run only.
    private func setState(_ newState: ServiceState, generation g: UInt64) {
        guard g == generation else { return }
        state = newState
        emit(.stateChanged(generation: g, newState))
    }

    private func runEnded(generation g: UInt64, token: CancellationToken, failure: String?) async {
        let success = failure == nil
        let current = g == generation
        // The generation guard: a late cleanup of an old run never clears a newer run's token.
        if current {
            if self.token === token { self.token = nil }
            state = .stopped
            if let failure { lastError = failure }
            emit(.stateChanged(generation: g, .stopped))
        }
        emit(.runEnded(generation: g, success: success, error: failure, current: current))
        switch configuration.behaviour {
        case .seed:
            // The Rust side calls the callback whatever the generation.
            if let callback = onComplete {
                emit(.completionCallback(generation: g, success: success))
                await callback(success)
            }
        case .strict:
            await finishStrict(generation: g, token: token, success: success)
        }
        emit(.runFinished(generation: g))
    }

    /// Strict: only the current run completes the background task, and a run that
    /// ended on its own also releases the keepalive, so that no background launch
    /// comes while no service runs.
    private func finishStrict(generation g: UInt64, token: CancellationToken, success: Bool) async {
        await acquireTurn()
        defer { releaseTurn() }
        guard g == generation else {
            emit(.completionSkipped(generation: g))
            return
        }
        if let callback = onComplete {
            emit(.completionCallback(generation: g, success: success))
            await callback(success)
        }
        if !token.isCancelled, self.token == nil {
            emit(.keepaliveReleased(generation: g))
            do {
                try await client.stopKeepalive()
            } catch {
                configuration.log("stopKeepalive after the run ended failed: \(error)")
                emit(.stopKeepaliveFailed(error: error.description))
            }
        }
    }
}
