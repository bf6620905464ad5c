import HostProtocol

/// Moving the shared virtual clock.
extension SystemSimulation {
    /// Advances host and plugin together by `duration`, stopping at every time
    /// something is due on either side (a host sleeper, a plugin timer, an
    /// auto-launch), so that each side reacts at the exact time. When both sides
    /// have something due at one instant, that is the race
    /// ``Race/pluginVsHostDeadline``: plugin first, or host first (the plugin is
    /// then moved to 1 ns before the instant, the host's due work runs and reaches
    /// it, then the plugin's fires). The OS's refresh budget ends after both.
    public func advance(by duration: VirtualTime) throws(SimulationError) {
        let target = now.adding(nanoseconds: duration.nanoseconds)
        var guardSteps = 0
        // Steps at one instant: a plugin that has something due now but does not act on it
        // (its state and its behaviour disagree) would otherwise hold the loop for 100,000.
        var instant = (at: VirtualTime.zero, steps: 0)
        while true {
            guardSteps += 1
            if guardSteps > 100_000 { throw .runaway(steps: 100_000) }
            let (pluginDue, budgetEnd) = try pluginNextDue()
            let hostDue = clock.nextDeadline
            let due = [pluginDue, hostDue, budgetEnd].compactMap { $0 }.filter { $0 <= target }.min()
            guard let stepTo = due ?? (now < target ? target : nil) else { return }
            let step = max(stepTo, now)
            instant = instant.at == step ? (step, instant.steps + 1) : (step, 1)
            if instant.steps > Self.maxStepsPerInstant { throw .runaway(steps: Self.maxStepsPerInstant) }
            stampTimeline(step)
            // Departs: host timers due at one instant wake in deadline, then set, order (no
            // choice), and the OS's refresh budget ends after both sides' work at that instant.
            let contested =
                pluginDue.map { max($0, now) == step } == true && hostDue.map { max($0, now) == step } == true
            if contested, options.dispatch == .tauri, info.os != .ios, !plugin.connection.holdsACall {
                // Under --dispatch tauri both sides act at once: the plugin's time step goes with
                // the host's first invoke at this instant, as one batch (Race.ipcVsMain). (Inside
                // an OS event already held for a batch, the two sides race as under serial.)
                let duration = VirtualTime(nanoseconds: step.nanoseconds - pluginNow.nanoseconds)
                let answer = try together(
                    OSAdvanceTime.name, params: OSAdvanceTime.Params(duration: duration).json, meeting: .any
                ) { () throws(SimulationError) in
                    clock.advance(to: step)
                    try runUntilIdle()
                }
                // Its answer waits with the batch's when a waitForCancel in it stays pending.
                if answer == nil { pluginNow = step }
                try runUntilIdle()
                if let budgetEnd, budgetEnd <= step { try expireOverBudget() }
                continue
            }
            if contested, races.choose(.pluginVsHostDeadline, run: nil, process: processes.count) == .second {
                let before = VirtualTime(nanoseconds: step.nanoseconds - 1)
                if before > pluginNow {
                    let by = VirtualTime(nanoseconds: before.nanoseconds - pluginNow.nanoseconds)
                    _ = try call(OSAdvanceTime.self, .init(duration: by), origin: .os)
                }
                clock.advance(to: step)
                try runUntilIdle()
            }
            if step > pluginNow || pluginDue.map({ $0 <= step }) == true {
                let duration = VirtualTime(nanoseconds: step.nanoseconds - pluginNow.nanoseconds)
                // Under --os ios the host's clock reaches the step before the host reacts to what
                // the OS did then (a process it started runs its code at that time).
                _ = try callRaw(
                    method: OSAdvanceTime.name, params: OSAdvanceTime.Params(duration: duration).json, origin: .os,
                    settle: info.os != .ios)
            }
            clock.advance(to: step)
            try runUntilIdle()
            if let budgetEnd, budgetEnd <= step { try expireOverBudget() }
        }
    }

    /// The next time after now at which ``advance(by:)`` would stop: the plugin's next due
    /// time (``pluginNextDue()``: its safety timer or an auto-launch, under `--os ios` its
    /// `ios.nextEventAt`), the OS's refresh budget's end, or the host clock's next sleeper; nil
    /// when nothing is due after now.
    public func nextDue() throws(SimulationError) -> VirtualTime? {
        let (pluginDue, budgetEnd) = try pluginNextDue()
        return [pluginDue, clock.nextDeadline, budgetEnd].compactMap { $0 }.filter { $0 > now }.min()
    }

    /// Most steps ``advance(by:)`` takes at one instant before it gives up (`runaway`).
    static let maxStepsPerInstant = 1_000

    /// iOS ends an app-refresh task whose budget is used up: its expiration handler runs.
    private func expireOverBudget() throws(SimulationError) {
        guard let budget = options.refreshBudget else { return }
        // The OS's running task decides (the plugin may have let go of it, ``osRunningTask``);
        // the state is still asked for, as before, since every trace's request ids count it.
        let active = try pluginState().activeTask
        let launched = osTask
        guard let task = launched?.task ?? active, task.kind == .refresh, launched?.expired != true,
            task.launchedAt.adding(nanoseconds: budget.nanoseconds) <= now
        else { return }
        note("the refresh task's budget is used up: iOS expires it")
        if case .success = try os(OSExpire.self, .init(identifier: task.identifier)) { budgetExpirations.append(task) }
    }

    /// When the plugin next has something to do on its own, from its state: the
    /// safety timer, or (with autoLaunch) the first eligible request; and when the
    /// running refresh task's budget ends, if the OS enforces one. Under `--os ios`,
    /// `plugin/state`'s `ios.nextEventAt`.
    func pluginNextDue() throws(SimulationError) -> (VirtualTime?, VirtualTime?) {
        let state = try pluginState()
        // Under --os ios the OS acts on its own (launches, budgets, the watchdog): only
        // the plugin knows when, and says so in ios.nextEventAt.
        if let ios = state.ios { return (ios.nextEventAt, nil) }
        var due = state.safetyTimerDeadline
        // The OS launches nothing while it runs a task, even one the plugin let go of.
        let launched = osTask
        let running = launched?.task ?? state.activeTask
        if state.conditions.autoLaunch, running == nil {
            for r in state.pendingRequests {
                if r.kind == .processing {
                    if r.requiresExternalPower, !state.conditions.externalPower { continue }
                    if r.requiresNetworkConnectivity, !state.conditions.networkConnected { continue }
                }
                let at = max(r.earliestBeginDate ?? state.now, state.now)
                due = due.map { min($0, at) } ?? at
            }
        }
        var budgetEnd: VirtualTime?
        if let budget = options.refreshBudget, let task = running, task.kind == .refresh, launched?.expired != true {
            budgetEnd = task.launchedAt.adding(nanoseconds: budget.nanoseconds)
        }
        return (due, budgetEnd)
    }
}
