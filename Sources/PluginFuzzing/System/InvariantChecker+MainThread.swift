import HostProtocol
import PluginHost

/// I1 (`--os ios --dispatch tauri`) and the main-thread watchdog (issue 22).
///
/// The emulated iOS kills the app in two ways, both counted in `counters.watchdogKills`: the
/// expiration watchdog (`ios.watchdog`: a task still not completed `watchdogGraceSecs` after
/// its expiration handler ran) and the main-thread watchdog (`ios.main-watchdog`: the main
/// thread blocked past `OSBlockMain.mainThreadWatchdogSecs`, 20 s, while a task runs;
/// `0x8badf00d`). I1 reads the first from the counter; this reads the second from the
/// plugin's `os/violation` reports, so that a kill of a blocked main thread is reported as
/// what it is and never as an expired task left uncompleted.
///
/// **What counts as the host's kill.** A block that is the app's own long-running work on
/// the main thread (`os/blockMain`, drawn by the fuzzer as it draws the OS's conditions)
/// gets the app killed whatever the plugin and the Rust side do: no finding, as I4's late
/// registration at a process's start (docs/fuzzing.md). A block made by a caller that waits
/// on the main thread for the plugin's answer (`x-mainThreadCaller`) is the plugin's and the
/// Rust side's doing: I1, "the main-thread watchdog killed the app".
extension InvariantChecker {
    /// The cause I1 reports for a kill of a main thread blocked by a caller.
    static let mainThreadKillCause =
        "the main-thread watchdog killed the app: a caller blocked the main thread past its allowance"

    /// I1 for each main-thread watchdog kill among `reports` (the plugin's new `os/violation`s)
    /// that a waiting caller made; every such kill is taken out of I1's expiration count.
    mutating func mainThreadKills(_ reports: [ViolationEvent.Params]) -> [Violation] {
        var found: [Violation] = []
        for report in reports where report.rule == "ios.main-watchdog" {
            mainThreadKills += 1
            // (The cause of an `os/blockMain` block is "os/blockMain N s": the app's own work.)
            if report.detail.contains(": os/blockMain ") { continue }
            found.append(
                Violation(
                    invariant: .i1, cause: Self.mainThreadKillCause,
                    detail: "the plugin reported ios.main-watchdog: \(report.detail); no expired task was left "
                        + "uncompleted: the main thread waited for an answer that needed it"))
        }
        return found
    }
}

/// I7 (`--os ios --dispatch tauri`, issue 22): a safety timer fires only while it is the
/// plugin's timer.
///
/// The seed keeps one `safetyTimer` on the main run loop; `cleanup()` invalidates it from
/// `ipc` (seed lines 181, 231, 287), and Apple's `Timer.invalidate()` says a timer
/// invalidated from another thread may not be removed from its run loop (the race
/// `invalidate-vs-fire`, `fire-first`). Such a timer sends no `invalidated` event and still
/// fires at its deadline, where `handleSafetyTimerExpiration` (seed 154-173) force-completes
/// whatever task runs then and resolves whatever `waitForCancel` is pending: a later task
/// is cut short. Read from the plugin's `plugin/safetyTimer` events, in order: the plugin's
/// timer is the last one `started` and not since `invalidated` or `fired`; a firing with
/// another deadline, once an invalidation was `fire-first` (`notRemoved`), is a timer the
/// plugin had already let go of. (Without one no timer can outlive its invalidation: a
/// firing the events cannot place, as across an app process's end, is then no finding.)
extension InvariantChecker {
    /// The cause I7 reports.
    static let staleTimerCause = "a safety timer invalidated off its thread still fires"

    /// I7 for each firing, among the events past those already read, of a timer that is not
    /// the plugin's; `notRemoved`: how many off-thread invalidations so far left their timer.
    mutating func staleTimers(_ events: [SafetyTimerEvent.Params], notRemoved: Int) -> [Violation] {
        var found: [Violation] = []
        for event in events.dropFirst(timerEventsSeen) {
            switch event.state {
            case .started: liveTimer = event.deadline
            case .invalidated: liveTimer = nil
            case .fired where event.deadline == liveTimer || notRemoved == 0: liveTimer = nil
            case .fired:
                let now = liveTimer.map { "the plugin's timer is the one due at \($0.decimalSeconds) s" }
                found.append(
                    Violation(
                        invariant: .i7, cause: Self.staleTimerCause,
                        detail: "a safety timer due at \(event.deadline.decimalSeconds) s fired, but "
                            + (now ?? "the plugin has no timer")
                            + ": that one was invalidated off its thread (cleanup() on ipc) and not removed from the "
                            + "main run loop; its handleSafetyTimerExpiration force-completes whatever task runs now "
                            + "and resolves whatever waitForCancel is pending"))
            }
        }
        timerEventsSeen = events.count
        return found
    }
}
