import HostProtocol

/// Moving the shared virtual clock.
extension SystemSimulation {
    /// Advances host and plugin together by `duration`, stopping at every time
    /// something is due on either side (a host sleeper, a plugin timer, an
    /// auto-launch), so that each side reacts at the exact time. At one instant the
    /// plugin's due work comes first, then the host's.
    public func advance(by duration: VirtualTime) throws(SimulationError) {
        let target = now.adding(nanoseconds: duration.nanoseconds)
        var guardSteps = 0
        while true {
            guardSteps += 1
            if guardSteps > 100_000 { throw .hung(["advance: more than 100000 steps at one time"]) }
            let pluginDue = try pluginNextDue()
            let hostDue = clock.nextDeadline
            let due = [pluginDue, hostDue].compactMap { $0 }.filter { $0 <= target }.min()
            guard let stepTo = due ?? (now < target ? target : nil) else { return }
            let step = max(stepTo, now)
            stampTimeline(step)
            if step > pluginNow || pluginDue.map({ $0 <= step }) == true {
                _ = try call(OSAdvanceTime.self, .init(duration: VirtualTime(nanoseconds: step.nanoseconds - pluginNow.nanoseconds)), origin: .os)
            }
            clock.advance(to: step)
            try runUntilIdle()
        }
    }

    /// When the plugin next has something to do on its own, from its state:
    /// the safety timer, or (with autoLaunch) the first eligible request.
    func pluginNextDue() throws(SimulationError) -> VirtualTime? {
        let state = try pluginState()
        var due = state.safetyTimerDeadline
        if state.conditions.autoLaunch, state.activeTask == nil {
            for r in state.pendingRequests {
                if r.kind == .processing {
                    if r.requiresExternalPower, !state.conditions.externalPower { continue }
                    if r.requiresNetworkConnectivity, !state.conditions.networkConnected { continue }
                }
                let at = max(r.earliestBeginDate ?? state.now, state.now)
                due = due.map { min($0, at) } ?? at
            }
        }
        return due
    }
}
