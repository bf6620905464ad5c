import HostProtocol

/// The app's main thread blocked by long-running work (`os/blockMain`, `--os ios` with
/// `--dispatch tauri`; issue 22).
///
/// While it is blocked, what the OS runs on it waits: the safety timer of the main run loop,
/// a runtime budget's expiration (the expiration handler runs on main) and a launch (the
/// launch handler is registered `using: .main`) fire when the block ends, in their own order
/// (duckduckgo/iOS pull request 782: work on the queue kept `expirationHandler` from running).
/// The host's `os/launch` and `os/expire`, which would run a handler on main now, answer
/// `-32002`. A block that outlasts ``OSBlockMain/mainThreadWatchdogSecs`` while a task runs
/// gets the app killed by the watchdog at that allowance (Apple, "Addressing watchdog
/// terminations": `0x8badf00d`), `os/appTerminated {reason: "watchdog", message}`.
extension EmulatedOS {
    /// One span during which the main thread of one process is busy.
    package struct MainBlock {
        /// The process whose main thread is busy (a block ends with its process).
        let process: ObjectIdentifier
        /// When it became busy.
        package let since: VirtualTime
        /// When it is free again.
        package let until: VirtualTime
        /// Why it is busy, for the watchdog's message.
        package let cause: String
        /// For a caller blocked on main until its invoke is answered: whether it still waits
        /// (the block then has no end of its own); nil for `os/blockMain`'s timed work.
        let waiting: (() -> Bool)?

        /// Whether a caller on main waits for an answer (a hop to main then deadlocks).
        package var isCallerWaiting: Bool { waiting != nil }
    }

    /// The block of the running process's main thread, while it lasts.
    package var activeMainBlock: MainBlock? {
        guard let block = mainBlock, app.isRunning, block.process == ObjectIdentifier(app), clock.now < block.until,
            block.waiting?() ?? true
        else { return nil }
        return block
    }

    /// `os/blockMain`: keeps main busy `duration` from now (behind a block in progress).
    package func blockMain(for duration: VirtualTime, cause: String) throws(RPCError) -> OSBlockMain.Result {
        guard app.isRunning else { throw RPCError.invalidState("cannot block the main thread: the app is not running") }
        let start = activeMainBlock?.until ?? clock.now
        let since = activeMainBlock?.since ?? clock.now
        let until = start.adding(nanoseconds: duration.nanoseconds)
        mainBlock = MainBlock(process: ObjectIdentifier(app), since: since, until: until, cause: cause, waiting: nil)
        return OSBlockMain.Result(blockedSince: since, blockedUntil: until)
    }

    /// A caller on the main thread waits for an invoke's answer (`x-mainThreadCaller`): main
    /// is blocked, with no end of its own, for as long as `waiting()` says.
    package func blockMainForCaller(cause: String, waiting: @escaping () -> Bool) {
        guard app.isRunning else { return }
        let since = activeMainBlock?.since ?? clock.now
        mainBlock = MainBlock(
            process: ObjectIdentifier(app), since: since, until: VirtualTime(nanoseconds: VirtualTime.limit),
            cause: cause, waiting: waiting)
    }

    /// `-32002` for a control that would run a handler on the blocked main thread now.
    func refuseWhileMainBlocked(_ what: String) throws(RPCError) {
        guard let block = activeMainBlock else { return }
        throw RPCError.invalidState(
            "cannot \(what): the main thread is blocked until \(block.until.decimalSeconds) s (\(block.cause)); "
                + "advance the clock past it")
    }

    /// Moves what runs on main (timers, budgets, launches) to the end of the block, and adds
    /// the watchdog's kill when the block outlasts its allowance while a task runs.
    func delayWhileMainBlocked(_ candidates: inout [Due]) {
        guard let block = activeMainBlock else { return }
        candidates = candidates.map { due in
            switch due.event {
            case .timer, .budget, .launch:
                guard due.at < block.until else { return due }
                return Due(at: block.until, event: due.event, order: due.order)
            case .watchdog, .deferral, .mainWatchdog, .suspend, .jetsam: return due
            }
        }
        let allowance = Int64(OSBlockMain.mainThreadWatchdogSecs) * 1_000_000_000
        let deadline = block.since.adding(nanoseconds: allowance)
        if !runningTasks.isEmpty, ios != nil, deadline < block.until {
            candidates.append(Due(at: max(deadline, clock.now), event: .mainWatchdog))
        }
    }

    /// The main thread is still blocked at the watchdog's allowance while a task runs: kill the app.
    func mainWatchdogFires() {
        guard let block = activeMainBlock, !runningTasks.isEmpty else { return }
        mainBlock = nil
        events.counters.watchdogKills = (events.counters.watchdogKills ?? 0) + 1
        let message =
            "the main thread was blocked for \(OSBlockMain.mainThreadWatchdogSecs) s "
            + "(since \(block.since.decimalSeconds) s: \(block.cause)) while a background task ran; "
            + "the watchdog killed the app (0x8badf00d)"
        // As the expiration watchdog's kill (`ios.watchdog`): a violation, counted in `violations` too.
        events.violation(rule: "ios.main-watchdog", detail: message)
        terminateApp(reason: .watchdog, message: message)
    }
}
