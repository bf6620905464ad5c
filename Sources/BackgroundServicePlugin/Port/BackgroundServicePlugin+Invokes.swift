import HostProtocol

/// The seed's five `@objc` invokes and `scheduleNext`, in the seed's order of steps.
extension BackgroundServicePlugin {
    // MARK: - waitForCancel (Pending Invoke pattern)

    func waitForCancel(_ invoke: Invoke) {
        // Port: under `strict`, a pending invoke is rejected (`superseded`) rather than
        // dropped; under `seed` the assignment below drops it unanswered, as the seed does.
        if profile == .strict, let previous = pendingCancelInvoke, !faults.contains(.dropSuperseded) {
            previous.reject(.superseded)
        }
        // Always store invoke — it will be resolved by expiration/completion
        // or rejected by stopKeepalive, regardless of BGTask state.
        setPendingCancelInvoke(invoke)
    }

    // MARK: - cancelCancelListener (timeout unblock)

    func cancelCancelListener(_ invoke: Invoke) {
        if let cancelInvoke = pendingCancelInvoke {
            rejectOrResolve(cancelInvoke, .listenerCancelled)
            pendingCancelInvoke = nil
        }
        invoke.resolve()
    }

    // MARK: - completeBgTask (Rust→Swift completion signal)

    func completeBgTask(_ invoke: Invoke) {
        // Extract success value from invoke arguments
        guard let success = completeBgTaskSuccess(invoke) else { return }
        if faults.contains(.resolveBeforeReject) { invoke.resolve() }
        // Track whether we had an active BGTask before nil-out.
        let hadActiveTask = currentRefreshTask != nil || currentProcessingTask != nil
        // Complete whichever task is active — nil out BEFORE completing
        // to prevent double-completion. At most one BGTask is active at a time.
        completeActiveTask(success: success)
        // Reject pending cancel invoke (unblocks Rust thread)
        if let cancelInvoke = pendingCancelInvoke {
            rejectOrResolve(cancelInvoke, .completed)
            pendingCancelInvoke = nil
        }
        // Only reschedule if we actually completed a background task.
        if hadActiveTask {
            scheduleNext()
        }
        // Clear remaining state
        cleanup()
        // Resolve this invoke
        if !faults.contains(.resolveBeforeReject) { invoke.resolve() }
    }

    // MARK: - startKeepalive (configurable iOS safety timers)

    func startKeepalive(_ invoke: Invoke) {
        guard let args = startKeepaliveArgs(invoke) else { return }
        if faults.contains(.configNotPersisted) { resetConfigToDefaults() }
        if !faults.contains(.ignoreConfig) {
            // BGAppRefreshTask safety timeout (default: 28.0s via PluginConfig)
            if let timeout = args.iosSafetyTimeoutSecs {
                safetyTimeout = timeout
            }
            // BGProcessingTask safety timeout (default: nil = no cap)
            if let processingTimeout = args.iosProcessingSafetyTimeoutSecs {
                processingSafetyTimeoutSecs = processingTimeout
            }
            // BGAppRefreshTask earliest begin date in minutes
            if let minutes = args.iosEarliestRefreshBeginMinutes {
                earliestRefreshBeginMinutes = minutes
            }
            // BGProcessingTask earliest begin date in minutes
            if let minutes = args.iosEarliestProcessingBeginMinutes {
                earliestProcessingBeginMinutes = minutes
            }
            // BGProcessingTask requires external power
            if let power = args.iosRequiresExternalPower {
                requiresExternalPower = power
            }
            // BGProcessingTask requires network connectivity
            if let network = args.iosRequiresNetworkConnectivity {
                requiresNetworkConnectivity = network
            }
        }
        scheduleNext()
        invoke.resolve()
    }

    // MARK: - stopKeepalive (clean up active task)

    func stopKeepalive(_ invoke: Invoke) {
        // Cancel any pending schedules for both task types
        scheduler.cancel(taskRequestWithIdentifier: refreshTaskId)
        scheduler.cancel(taskRequestWithIdentifier: processingTaskId)
        // Reject pending cancel invoke unconditionally (unblocks Rust thread)
        // This must happen even when no BGTask is active (foreground stop).
        if let cancelInvoke = pendingCancelInvoke {
            rejectOrResolve(cancelInvoke, .stopped)
            pendingCancelInvoke = nil
        }
        // If a BGTask is active, nil out and complete it — prevents
        // completeBgTask from double-completing if it races in.
        completeActiveTask(success: false)
        if faults.contains(.rescheduleAfterStop) { scheduleNext() }
        // Clear remaining state
        cleanup()
        invoke.resolve()
    }

    // MARK: - Scheduling

    func scheduleNext() {
        // BGAppRefreshTask — runs opportunistically, ~30s budget
        let refreshReq = BGAppRefreshTaskRequest(identifier: refreshTaskId)
        // Port: `Date(timeIntervalSinceNow:)` reads the injected clock.
        refreshReq.earliestBeginDate = clock.now.adding(seconds: earliestRefreshBeginMinutes * 60)
        do {
            try scheduler.submit(refreshReq)
        } catch {
            events.log("Failed to submit BGAppRefreshTask '\(refreshTaskId)': \(error.rawValue)")
        }
        // BGProcessingTask — runs when device idle, minutes budget
        let processingReq = BGProcessingTaskRequest(identifier: processingTaskId)
        processingReq.earliestBeginDate = clock.now.adding(seconds: earliestProcessingBeginMinutes * 60)
        processingReq.requiresExternalPower = requiresExternalPower
        processingReq.requiresNetworkConnectivity = requiresNetworkConnectivity
        do {
            try scheduler.submit(processingReq)
        } catch {
            events.log("Failed to submit BGProcessingTask '\(processingTaskId)': \(error.rawValue)")
        }
    }
}
