import HostProtocol

/// Helpers the port's methods share, kept out of the seed-shaped files.
extension BackgroundServicePlugin {
    /// The seed's repeated block: "Complete whichever task is active — nil out
    /// BEFORE completing to prevent double-completion."
    func completeActiveTask(success: Bool) {
        if let task = currentRefreshTask {
            currentRefreshTask = nil
            task.setTaskCompleted(success: success)
            if faults.contains(.completeTwice) { task.setTaskCompleted(success: success) }
        } else if let task = currentProcessingTask {
            currentProcessingTask = nil
            task.setTaskCompleted(success: success)
            if faults.contains(.completeTwice) { task.setTaskCompleted(success: success) }
        }
    }

    /// `cancelInvoke.reject(error: nil)`, with the contract's reason.
    func rejectOrResolve(_ invoke: Invoke, _ reason: RejectReason) {
        if faults.contains(.resolveInsteadOfReject) {
            invoke.resolve()
        } else {
            invoke.reject(reason)
        }
    }

    /// `pendingCancelInvoke = invoke`, separated so that `plugin/reset` and
    /// `shutdown` can reach it too.
    func setPendingCancelInvoke(_ invoke: Invoke?) {
        pendingCancelInvoke = invoke
    }

    /// `plugin/reset` and `shutdown`: reject the pending cancel invoke with `reason`.
    func rejectPendingCancelInvoke(_ reason: RejectReason) {
        if let invoke = pendingCancelInvoke {
            invoke.reject(reason)
            pendingCancelInvoke = nil
        }
    }

    /// Reports the safety timer's transitions as `plugin/safetyTimer` events.
    var safetyTimerObserver: (SafetyTimerEvent.State, VirtualTime) -> Void {
        { [events] state, deadline in
            events.send(SafetyTimerEvent.self, .init(state: state, deadline: deadline))
        }
    }

    /// `invoke.args(as: [String: Bool].self)?["success"] ?? true`.
    /// Port: the seed decodes the whole args as `[String: Bool]`, so any other
    /// non-boolean member would also make it `true`; the contract reads `success`
    /// alone (unknown members are ignored). Under `strict` a non-boolean is -32602.
    /// Returns nil when the invoke was rejected.
    func completeBgTaskSuccess(_ invoke: Invoke) -> Bool? {
        let fallback = !faults.contains(.successDefaultFalse)
        switch profile {
        case .seed:
            return ((try? CompleteBgTask.Params.lenient(invoke.args))?.0.success) ?? fallback
        case .strict:
            do {
                return try CompleteBgTask.Params(json: invoke.args).success ?? fallback
            } catch {
                invoke.reject(.invalidParams(error.description))
                return nil
            }
        }
    }

    /// `invoke.args(as: [String: Any].self)` with each field's `as? Double` / `as? Bool`.
    /// Port: under `seed` a wrong-typed field (JSON `null` included) is ignored, as
    /// the seed's casts do; under `strict` it is -32602 and nothing changes, and
    /// `iosProcessingSafetyTimeoutSecs: null` clears the processing timer. A JSON
    /// `true` is not a number here, although an `NSNumber` cast would accept it.
    /// Returns nil when the invoke was rejected.
    func startKeepaliveArgs(_ invoke: Invoke) -> StartKeepalive.Params? {
        switch profile {
        case .seed:
            return (try? StartKeepalive.Params.lenient(invoke.args))?.0 ?? StartKeepalive.Params()
        case .strict:
            do {
                return try StartKeepalive.Params(json: invoke.args)
            } catch {
                invoke.reject(.invalidParams(error.description))
                return nil
            }
        }
    }

    /// Fault `reset-keeps-config` only: carry the stored config across a reset.
    func copyConfig(from other: BackgroundServicePlugin) {
        safetyTimeout = other.safetyTimeout
        processingSafetyTimeoutSecs = other.processingSafetyTimeoutSecs
        earliestRefreshBeginMinutes = other.earliestRefreshBeginMinutes
        earliestProcessingBeginMinutes = other.earliestProcessingBeginMinutes
        requiresExternalPower = other.requiresExternalPower
        requiresNetworkConnectivity = other.requiresNetworkConnectivity
    }
}
