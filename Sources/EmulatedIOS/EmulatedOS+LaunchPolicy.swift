import HostProtocol

/// The system's launch decision under `--os ios`.
///
/// A pending request is never launched before its `earliestBeginDate`, and usually
/// later: at its planned time (``IOSSystem/plan(_:at:)``), and only when every
/// factor allows it (WWDC20 "Background execution demystified"). One evaluation
/// serves the launcher, `os/launchDeferred` and `os/explain`, so they always agree.
extension EmulatedOS {
    /// Why a request is not running now, and when it would launch if only the clock moved.
    package struct Evaluation {
        /// Every reason, in the documented order; empty when it can launch now.
        var reasons: [LaunchReason] = []
        /// nil when a condition, the running task, the user or a missing handler blocks it.
        var launchAt: VirtualTime?
    }

    /// Evaluates a pending request at the current time.
    package func evaluate(_ request: BGTaskRequest) -> Evaluation {
        guard let ios else { return Evaluation() }
        let now = clock.now
        let c = conditions
        let device = c.ios ?? .defaults
        var reasons: [LaunchReason] = []
        var blocked = false
        func condition(_ factor: LaunchFactor, _ detail: String) {
            reasons.append(LaunchReason(factor: factor, detail: detail))
            blocked = true
        }
        if ios.forceQuit {
            condition(
                .forceQuit,
                "the app was force-quit; iOS launches nothing in the background until the user opens it (os/openApp)")
        }
        // (With `crashOnMisuse` the system launches it, and the app crashes: `launchCrashes`.)
        if app.isRunning, scheduler.registrations[request.identifier] == nil, !ios.policy.crashOnMisuse {
            let why = app.registrationError.map { " (\($0))" } ?? ""
            condition(.notRegistered, "the running app has no launch handler for \(request.identifier)\(why)")
        }
        if !c.autoLaunch {
            condition(.autoLaunchOff, "autoLaunch is off: the system launches nothing by itself (os/launch still does)")
        }
        if request.kind == .refresh, c.backgroundRefreshStatus != .available {
            let status = c.backgroundRefreshStatus.rawValue
            condition(.backgroundAppRefreshOff, "Background App Refresh is \(status): refresh tasks are not launched")
        }
        if device.batteryLevel < IOSConditions.lowBatteryThreshold {
            let percent = Int((device.batteryLevel * 100).rounded(.down))
            condition(.lowBattery, "battery at \(percent) % (below 20 %): no discretionary launches")
        }
        if device.lowPowerMode { condition(.lowPowerMode, "Low Power Mode is on: background launches are paused") }
        if let processing = request as? BGProcessingTaskRequest {
            if device.deviceInUse {
                condition(.deviceInUse, "the device is in use; processing tasks wait until it is idle")
            }
            if processing.requiresExternalPower, !c.externalPower {
                condition(.externalPower, "requires external power; the device is not on power")
            }
            if processing.requiresNetworkConnectivity, !c.networkConnected {
                condition(.networkConnectivity, "requires network connectivity; the device has none")
            }
        }
        if let running = taskRunningDetail(for: request.identifier) { condition(.taskRunning, running) }
        if let foreground = foregroundDetail(for: request) { condition(.appInForeground, foreground) }
        if let unused = unusedDetail(for: request) { condition(.appUsage, unused) }
        var at = now
        func wait(_ factor: LaunchFactor, until t: VirtualTime, _ detail: String) {
            guard t > now else { return }
            // A time at the clock's limit never comes (`docs/rules.md`, "timers"): no `until`.
            let never = t.reachesClockLimit
            reasons.append(
                LaunchReason(
                    factor: factor, detail: never ? detail + " (the clock's limit: never)" : detail,
                    until: never ? nil : t))
            at = max(at, t)
        }
        if let begin = request.earliestBeginDate {
            wait(.earliestBeginDate, until: begin, "earliestBeginDate in \(begin.subtracting(now).decimalSeconds) s")
        }
        if let planned = request.plan?.plannedAt, planned > request.earliestBeginDate ?? .zero {
            wait(.systemDelay, until: planned, "the system plans to launch it at \(clockText(planned))")
        }
        if let last = ios.lastLaunch[request.identifier] {
            let spacing = VirtualTime.nanoseconds(fromSeconds: ios.policy.minLaunchSpacingSecs) ?? 0
            wait(
                .rateLimit, until: last.adding(nanoseconds: spacing),
                "launched \(now.subtracting(last).decimalSeconds) s ago; "
                    + "at least \(IOSPolicy.secondsJSON(ios.policy.minLaunchSpacingSecs)) s between its launches")
        }
        if let spacing = usageSpacing(for: request) { wait(.appUsage, until: spacing.until, spacing.detail) }
        let affordable = ios.energy.affordableAt(now)
        wait(.energyBudget, until: affordable, "energy budget exhausted until \(clockText(affordable))")
        if now.reachesClockLimit {
            reasons.append(
                LaunchReason(
                    factor: .clockLimit,
                    detail: "the clock is at its limit (about 146 years) and never moves again: nothing more launches"))
        }
        return Evaluation(reasons: reasons, launchAt: blocked || at.reachesClockLimit ? nil : at)
    }

    /// The policy's next launch or deferral report, if any.
    package func nextPolicyEvent() -> Due? {
        var best: Due?
        func consider(_ due: Due) { if best.map({ due.precedes($0) }) ?? true { best = due } }
        for request in store.pendingTaskRequests {
            let evaluation = evaluate(request)
            let order = (request.kind == .refresh ? 0 : 1, request.identifier)
            if let at = evaluation.launchAt { consider(Due(at: at, event: .launch(request.identifier), order: order)) }
            if let plan = request.plan, !plan.deferralReported {
                let due = max(plan.plannedAt, clock.now)
                if evaluation.launchAt != due {
                    consider(Due(at: due, event: .deferral(request.identifier), order: order))
                }
            }
        }
        return best
    }

    /// A time as a clock reading (the virtual clock's 0 is midnight of day 0) and in seconds:
    /// `06:00 (t=21600 s)`, `day 1 06:30 (t=109800 s)`.
    package func clockText(_ t: VirtualTime) -> String {
        let whole = max(0, t.nanoseconds / 1_000_000_000)
        let day = whole / 86_400
        let inDay = whole % 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let hhmm = "\(two(inDay / 3600)):\(two(inDay % 3600 / 60))"
        return (day == 0 ? hhmm : "day \(day) \(hhmm)") + " (t=\(t.decimalSeconds) s)"
    }
}
