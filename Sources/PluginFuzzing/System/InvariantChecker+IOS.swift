import HostProtocol
import HostSimulation
import PluginHost

/// The invariants `--os ios` adds, read from the plugin's state and the simulation's
/// record of app processes after each step (docs/fuzzing.md).
extension InvariantChecker {
    /// What the simulation saw of app processes in one step.
    struct Lifecycle {
        /// Host calls that a process wrote before it ended and that are still unanswered.
        var deadProcessCalls: [(id: RequestID, method: String, process: Int)]
        /// Processes started in this step.
        var relaunches: [AppRelaunch]
        /// Whether each relaunched process started a run.
        var startedARun: [Int: Bool]
        /// The current process.
        var process: Int
    }

    mutating func checkIOS(plugin s: PluginStateSnapshot, lifecycle l: Lifecycle) -> [Violation] {
        var found: [Violation] = []
        process = l.process
        // I1: the watchdog killed the app: a task was not completed in time after its expiration.
        // (The main-thread watchdog's kills, counted in watchdogKills too, were read from the
        // plugin's reports: InvariantChecker+MainThread.swift.)
        let kills = s.counters.watchdogKills ?? 0
        let expiryKills = kills - watchdogKillsSeen - mainThreadKills
        mainThreadKills = 0
        if expiryKills > 0 {
            let task = s.ios?.app.lastTermination.map { "at \($0.at.decimalSeconds) s" } ?? ""
            found.append(
                Violation(
                    invariant: .i1, cause: "the watchdog killed the app: an expired task was not completed in time",
                    detail: "iOS killed the app \(task): a task was still not completed \(watchdogGrace(s)) after its "
                        + "expiration handler ran, and nothing on the host side completed it"))
        }
        watchdogKillsSeen = kills
        found += unowned(s)
        // I2: a call of a process that has ended, still unanswered: nothing will resume its task.
        for call in l.deadProcessCalls {
            found.append(
                Violation(
                    invariant: .i2, cause: "a \(call.method) of a terminated app process is never answered",
                    detail:
                        "request \(call.id) (\(call.method)) of app process \(call.process) is still awaited after the "
                        + "process ended; the plugin does not hold it, so no answer will come"))
        }
        // I3: a service that was running when the app ended, not running in the new process, and no word why.
        for r in l.relaunches
        where r.serviceMeantToRun && r.notResumedBecause == nil && l.startedARun[r.process] != true {
            let how = r.cause == .backgroundTask ? "a cold start into the background" : "the user opening the app"
            found.append(
                Violation(
                    invariant: .i3,
                    cause: "a service running when the app ended is not resumed at the next launch, silently",
                    detail: "app process \(r.process) started (\(how)) at \(r.at.decimalSeconds) s; the service was "
                        + "running "
                        + "when the app last ended, and the new Rust side neither starts it nor says why"))
        }
        return found
    }

    /// I5: a task the OS runs that the app's code no longer holds. When the app held it at the
    /// last check while another task ran beside it, or another task was completed since the
    /// last check, completing that other task let go of it (the seed's one `cleanup()`, seed
    /// lines 177-183, clears both task references).
    private mutating func unowned(_ s: PluginStateSnapshot) -> [Violation] {
        let running = s.ios?.runningTasks ?? []
        let completedSince = s.counters.completed > completedSeen
        completedSeen = s.counters.completed
        var found: [Violation] = []
        var stillLetGo: Set<String> = []
        for task in running where task.heldByApp == false {
            let letGo =
                completedSince || heldBesideAnother.contains(task.identifier) || letGoTasks.contains(task.identifier)
            if letGo { stillLetGo.insert(task.identifier) }
            found.append(
                Violation(
                    invariant: .i5,
                    cause: letGo
                        ? "completing one task lets go of the other" : "a running task is left without an owner",
                    detail: "\(task.identifier) is running, but the app holds no reference to it"
                        + (letGo ? " since another task was completed" : "")
                        + ": nothing will call setTaskCompleted; iOS will expire it at its budget and kill the app"))
        }
        let held = running.filter { $0.heldByApp == true }
        heldBesideAnother = running.count > 1 ? Set(held.map(\.identifier)) : []
        letGoTasks = stillLetGo
        return found
    }

    private func watchdogGrace(_ s: PluginStateSnapshot) -> String {
        s.ios.map { "\(VirtualTime(seconds: $0.policy.watchdogGraceSecs)?.decimalSeconds ?? "?") s" } ?? "the grace"
    }
}
