import HostProtocol

/// Virtual time: `os/advanceTime` and the real clock's catch-up fire every
/// autonomous event at its own time.
///
/// At equal times the order is: the app's timers (in creation order), the watchdog,
/// a runtime budget running out, `os/launchDeferred` reports, launches (refresh
/// before processing, then by identifier). Under `--os manual` only timers and
/// `autoLaunch` launches exist.
extension EmulatedOS {
    /// Something the OS does on its own at a given time.
    package enum Autonomous {
        case timer(EmulatedTimer)
        case watchdog
        case budget
        case deferral(String)
        case launch(String)

        /// The rank at equal times.
        var rank: Int {
            switch self {
            case .timer: 0
            case .watchdog: 1
            case .budget: 2
            case .deferral: 3
            case .launch: 4
            }
        }
    }

    /// An autonomous event and when it is due; `order` breaks ties within a rank.
    package struct Due {
        let at: VirtualTime
        let event: Autonomous
        var order: (kind: Int, identifier: String) = (0, "")

        func precedes(_ other: Due) -> Bool {
            if at != other.at { return at < other.at }
            if event.rank != other.event.rank { return event.rank < other.event.rank }
            if order.kind != other.order.kind { return order.kind < other.order.kind }
            return order.identifier.utf8.lexicographicallyPrecedes(other.order.identifier.utf8)
        }
    }

    /// Most events one advance performs under `--os manual`. With a safety timer of
    /// 0 s (0.1 ms) and begin dates of 0 minutes under auto-launch, every 0.1 ms of
    /// virtual time launches and ends a task; the limit keeps one call bounded.
    package static let maxEventsPerAdvance = 1000
    /// The same under `--os ios`, where the policy's rate limit and energy budget
    /// already bound launches: a realistic day takes a few hundred events. Reached, the
    /// advance still finishes its instant, up to twice as many events in all.
    package static let maxEventsPerAdvanceIOS = 100_000

    /// Why an advance stopped before its target.
    package struct AdvanceStop: Equatable {
        /// Events performed by the call.
        let performed: Int
        /// Whether every event due at the stop's time ran (else the rest run on the next call).
        let instantFinished: Bool
    }

    /// `os/advanceTime` (virtual clock only).
    package func advanceTime(by duration: VirtualTime) throws(RPCError) -> VirtualTime {
        guard clock.kind == .virtual else {
            throw RPCError.invalidState("os/advanceTime needs the virtual clock; this plugin runs --clock real")
        }
        if let stop = advance(to: clock.now.adding(nanoseconds: duration.nanoseconds)) {
            let at = clock.now.decimalSeconds
            let what =
                ios == nil
                ? "\(stop.performed) timer firings and launches"
                : "\(stop.performed) autonomous events (timer firings, expirations, kills, launches)"
            // Under `--os manual` the stop never waits for its instant (`docs/protocol.md`).
            let next =
                stop.instantFinished || ios == nil
                ? "; advance again to go on"
                : ", within that instant (the hard bound is \(2 * iosEventBound) events); "
                    + "advance again to run the events still due at \(at) s and go on"
            var error = RPCError.invalidState("os/advanceTime stopped at \(at) s after \(what)\(next)")
            error.data = ["now": clock.now.json]
            throw error
        }
        return clock.now
    }

    /// Moves the clock to `target`, performing each due event at its own time; nil when it
    /// got there. It stops early, at the time of its last event:
    /// - under `--os manual`, right after ``maxEventsPerAdvance`` events (events still due at
    ///   that time run on the next call);
    /// - under `--os ios`, once ``iosEventBound`` events (``maxEventsPerAdvanceIOS``) have run and every event due
    ///   at that instant has too, so the state is exactly the state at the time it answers;
    ///   unless that one instant holds more than another ``iosEventBound`` events
    ///   (zero budgets, spacing and delays with a large energy budget relaunch a task within
    ///   the instant): then it stops at twice the bound, in the middle of the instant.
    @discardableResult
    package func advance(to target: VirtualTime) -> AdvanceStop? {
        let bound = ios == nil ? EmulatedOS.maxEventsPerAdvance : iosEventBound
        var performed = 0
        while let next = nextDue(), next.at <= target {
            if performed >= bound {
                let sameInstant = next.at == clock.now
                if ios == nil || !sameInstant || performed >= 2 * bound {
                    return AdvanceStop(performed: performed, instantFinished: !sameInstant)
                }
            }
            clock.set(next.at)
            perform(next.event)
            performed += 1
        }
        clock.set(target)
        return nil
    }

    /// The next time something is due (real clock: when to wake up).
    package func nextDueTime() -> VirtualTime? { nextDue()?.at }

    /// The first of everything due.
    package func nextDue() -> Due? {
        var candidates: [Due] = []
        if app.isRunning, let timer = runLoop.nextTimer() {
            candidates.append(Due(at: timer.fireDate, event: .timer(timer)))
        }
        if let ios {
            if let t = ios.watchdogDeadline { candidates.append(Due(at: t, event: .watchdog)) }
            if let t = ios.budgetDeadline { candidates.append(Due(at: t, event: .budget)) }
            if let next = nextPolicyEvent() { candidates.append(next) }
        } else if let launch = nextAutoLaunch() {
            candidates.append(Due(at: launch.at, event: .launch(launch.identifier)))
        }
        let next = candidates.min { $0.precedes($1) }
        // `--os ios`: a policy deadline at the clock's limit never comes, as a timer's does not
        // (a budget of 30 s from a clock near the limit, a launch once the clock is there).
        if ios != nil, let next, next.at.reachesClockLimit { return nil }
        return next
    }

    private func perform(_ event: Autonomous) {
        switch event {
        case .timer(let timer): fire(timer)
        case .watchdog: watchdogFires()
        case .budget: expireRunningTask(cause: .budget)
        case .deferral(let identifier): reportDeferral(of: identifier)
        case .launch(let identifier):
            if ios == nil { launchPending(identifier) } else { policyLaunch(identifier) }
        }
    }

    /// `--os manual`: the next request `autoLaunch` would launch, and when.
    private func nextAutoLaunch() -> (identifier: String, at: VirtualTime)? {
        guard conditions.autoLaunch, runningTask == nil else { return nil }
        var best: (identifier: String, at: VirtualTime, rank: Int)?
        for request in store.pendingTaskRequests {
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
}
