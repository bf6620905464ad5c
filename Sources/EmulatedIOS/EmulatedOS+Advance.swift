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
        /// The app's main thread has been blocked past the watchdog's allowance (`os/blockMain`).
        case mainWatchdog
        /// The app, idle in the background, is suspended (`appStates`; `EmulatedOS+AppStates.swift`).
        case suspend
        /// The system ends the suspended app to reclaim memory (`EmulatedOS+Jetsam.swift`).
        case jetsam

        /// The rank at equal times.
        var rank: Int {
            switch self {
            case .timer: 0
            case .watchdog: 1
            case .budget: 2
            case .deferral: 3
            case .launch: 4
            case .mainWatchdog: 5
            case .suspend: 6
            case .jetsam: 7
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
                !policy.finishesInstant
                ? "\(stop.performed) timer firings and launches"
                : "\(stop.performed) autonomous events (timer firings, expirations, kills, launches)"
            // Under `--os manual` the stop never waits for its instant (`docs/protocol.md`).
            let next =
                stop.instantFinished || !policy.finishesInstant
                ? "; advance again to go on"
                : ", within that instant (the hard bound is \(2 * policy.advanceEventBound) events); "
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
    /// - under `--os ios`, once ``IOSSystem/eventBound`` events (``maxEventsPerAdvanceIOS``)
    ///   have run and every event due at that instant has too, so the state is exactly the
    ///   state at the time it answers;
    ///   unless that one instant holds more than another ``IOSSystem/eventBound`` events
    ///   (zero budgets, spacing and delays with a large energy budget relaunch a task within
    ///   the instant): then it stops at twice the bound, in the middle of the instant.
    @discardableResult
    package func advance(to target: VirtualTime) -> AdvanceStop? {
        let bound = policy.advanceEventBound
        var performed = 0
        while let next = nextDue(), next.at <= target {
            if performed >= bound {
                let sameInstant = next.at == clock.now
                if !policy.finishesInstant || !sameInstant || performed >= 2 * bound {
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
        if app.isRunning, !isSuspended, let timer = runLoop.nextTimer() {
            candidates.append(Due(at: dueTime(of: timer), event: .timer(timer)))
        }
        policy.addDueEvents(of: self, to: &candidates)
        delayWhileMainBlocked(&candidates)
        let next = candidates.min { $0.precedes($1) }
        // `--os ios`: a policy deadline at the clock's limit never comes, as a timer's does not
        // (a budget of 30 s from a clock near the limit, a launch once the clock is there).
        if policy.neverDueAtClockLimit, let next, next.at.reachesClockLimit { return nil }
        return next
    }

    private func perform(_ event: Autonomous) {
        switch event {
        case .timer(let timer): fire(timer)
        case .watchdog: watchdogFires()
        case .budget: expireDueBudget()
        case .deferral(let identifier): reportDeferral(of: identifier)
        case .launch(let identifier): policy.launchDue(identifier, in: self)
        case .mainWatchdog: mainWatchdogFires()
        case .suspend: suspendApp()
        case .jetsam: jetsamFires()
        }
    }
}
