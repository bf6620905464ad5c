import HostProtocol
import PluginHost
import RustSide

/// A broken invariant, with its cause (what groups findings) and the details.
public struct Violation: Sendable, Hashable {
    /// The invariant broken.
    public let invariant: Invariant
    /// A short, stable description of the cause.
    public let cause: String
    /// What was seen, in words.
    public let detail: String

    /// What findings are grouped by.
    public var signature: String { "\(invariant.rawValue): \(cause)" }
}

/// Checks the invariants against the plugin's state and the host's, after each step.
struct InvariantChecker {
    private var generation: UInt64 = 0
    private var eventsSeen = 0
    private var violationsSeen = 0
    /// Runs during which a launch has been scheduled at some point (app process, generation).
    private var scheduledRuns: Set<[UInt64]> = []
    /// The app process the manager's runs belong to (a new process counts runs from 1 again).
    var process = 1
    var watchdogKillsSeen = 0
    /// I5: the tasks the app held at the last check while another task ran beside them.
    var heldBesideAnother: Set<String> = []
    /// I5: the running tasks let go of that way, still running.
    var letGoTasks: Set<String> = []
    /// I5: the OS's completions at the last check.
    var completedSeen = 0
    /// The plugin's `os/violation` reports seen so far, and how many were the cross-queue
    /// races on invokes (`--dispatch tauri`, `InvariantChecker+Queues.swift`).
    var pluginReportsSeen = 0
    var invokeRaces = 0
    /// The `waitForCancel` requests the plugin let go of in such a race.
    var lostWaits: Set<RequestID> = []
    /// The main-thread watchdog's kills seen in the plugin's reports and not yet taken out
    /// of I1's count (`InvariantChecker+MainThread.swift`).
    var mainThreadKills = 0
    /// I7: the `plugin/safetyTimer` events read so far, and the deadline of the timer they say
    /// the plugin has now (`InvariantChecker+MainThread.swift`).
    var timerEventsSeen = 0
    var liveTimer: VirtualTime?
    /// I8, I9: the app's state as the plugin's events last said (nil: `appStates` off), and the
    /// timeline entries read so far (`InvariantChecker+AppStates.swift`).
    var appState: AppState?
    var suspendedAt: VirtualTime?
    var timelineSeen = 0

    /// Everything broken now. `expired` lists the tasks whose expiration handler ran in this step;
    /// `pluginReports` every `os/violation` the plugin has sent so far; `osRunning` the task the
    /// OS runs, from its events (``SystemSimulation/osRunningTask``).
    mutating func check(
        plugin s: PluginStateSnapshot, status: ServiceStatus, bridge: BridgeSnapshot, serviceEvents: [ServiceEvent],
        expired: [PluginStateSnapshot.ActiveTask], pluginReports: [ViolationEvent.Params] = [],
        osRunning: PluginStateSnapshot.ActiveTask? = nil
    ) -> [Violation] {
        var found = staleStops(Array(serviceEvents.dropFirst(eventsSeen)))
        eventsSeen = serviceEvents.count
        found += invokeRaces(Array(pluginReports.dropFirst(pluginReportsSeen)))
        found += crashes(Array(pluginReports.dropFirst(pluginReportsSeen)), plugin: s)
        found += mainThreadKills(Array(pluginReports.dropFirst(pluginReportsSeen)))
        pluginReportsSeen = pluginReports.count
        let held = s.cancelInvokePending == true ? s.pendingCancelInvoke : nil
        found += threads(bridge, held: held)
        // D2: exactly once, and promptly after expiration.
        // (Under --os ios the watchdog's kills and the crashes are violations too: I1 and I4 read
        // them; the races on invokes are D1's.)
        let exactlyOnce =
            s.counters.violations - (s.counters.watchdogKills ?? 0) - (s.counters.crashes ?? 0) - invokeRaces
        if exactlyOnce > violationsSeen {
            found.append(
                Violation(
                    invariant: .d2, cause: "a task was completed twice",
                    detail: "the plugin reported \(exactlyOnce - violationsSeen) exactly-once violation(s)"))
        }
        violationsSeen = exactlyOnce
        if let active = s.activeTask, expired.contains(active) {
            found.append(
                Violation(
                    invariant: .d2, cause: "a task was not completed when its expiration handler ran",
                    detail: "\(active.identifier) (launched at \(active.launchedAt.decimalSeconds) s) is still"
                        + " running after its expiration handler; iOS would kill the app"))
        }
        // D2: a task the OS runs and the plugin no longer holds is never completed (under
        // --dispatch tauri, `cleanup()` on ipc can clear the reference the launch handler just stored).
        // (Under --os ios, I5 reads the OS's own list of running tasks instead: it sees two at once.)
        if s.ios == nil, let task = osRunning, s.activeTask?.identifier != task.identifier {
            found.append(
                Violation(
                    invariant: .d2, cause: "the plugin let go of a running task",
                    detail: "\(task.identifier) (launched at \(task.launchedAt.decimalSeconds) s) is running, but the"
                        + " plugin holds no reference to it: nothing will call setTaskCompleted, and iOS would expire"
                        + " it and kill the app"))
        }
        // D4: while running, a scheduled launch must stay scheduled. (Under --os ios, not while
        // the app's process is gone: its Rust side's last status is not a service that runs.)
        if status.isRunning, s.ios?.app.phase != .notRunning {
            let run = [UInt64(process), status.generation]
            if s.activeTask != nil || !s.pendingRequests.isEmpty { scheduledRuns.insert(run) }
            if scheduledRuns.contains(run), s.activeTask == nil, s.pendingRequests.isEmpty,
                s.conditions.backgroundRefreshStatus == .available
            {
                found.append(
                    Violation(
                        invariant: .d4, cause: "no background launch is scheduled while the service runs",
                        detail: "run \(status.generation) is running, no task is active and no request is pending"))
            }
        }
        // D5: a task running while no service runs.
        if !status.isRunning, let task = s.activeTask {
            found.append(
                Violation(
                    invariant: .d5,
                    cause: "a \(task.kind.rawValue) task launched while no service runs is left running",
                    detail: "\(task.identifier) (launched at \(task.launchedAt.decimalSeconds) s) is running with no"
                        + " service to do its work or complete it; only a timer or expiration will end it"))
        }
        found += listeners(bridge, held: held, status: status, plugin: s)
        return found
    }

    /// D3: a stop from a listener of an earlier run that was carried out.
    private mutating func staleStops(_ newEvents: [ServiceEvent]) -> [Violation] {
        var found: [Violation] = []
        for (i, e) in newEvents.enumerated() {
            if case .startRequested(let g) = e { generation = g }
            guard case .stopRequested(let origin) = e, let g = origin.generation, g != generation else { continue }
            let next = i + 1 < newEvents.count ? newEvents[i + 1] : nil
            if case .stopIgnored? = next { continue }
            if case .stopFailed? = next { continue }
            let how = if case .listenerTimedOut = origin { "timed out" } else { "resolved" }
            found.append(
                Violation(
                    invariant: .d3, cause: "the cancel listener of an earlier run (\(how)) stopped the current run",
                    detail: "a stop requested by \(origin) stopped run \(generation)"))
        }
        return found
    }

    /// D1 (a thread blocked on an invoke the plugin dropped) and D7 (the pool ran out).
    private func threads(_ bridge: BridgeSnapshot, held: RequestID?) -> [Violation] {
        var found: [Violation] = []
        // (A waitForCancel lost in a race between the plugin's queues is reported as that race.)
        let dropped = bridge.calls.filter {
            $0.method == WaitForCancel.name && $0.request != held && !lostWaits.contains($0.request)
        }
        for call in dropped {
            let listener =
                bridge.listening.contains(call.run)
                ? "its listener still waits for it" : "its listener has already given up on it"
            found.append(
                Violation(
                    invariant: .d1, cause: "a blocking thread waits on a waitForCancel the plugin no longer holds",
                    detail: "blocking-pool thread \(call.poolThread ?? 0) is blocked on request #\(call.request) (run"
                        + " \(call.run)'s waitForCancel; \(listener)); the plugin dropped it when a newer waitForCancel"
                        + " arrived, so no answer will come and the thread stays blocked for the life of the process"))
        }
        if let run = bridge.queued.first {
            let leaked = bridge.calls.filter { $0.poolThread != nil && $0.request != held }.count
            found.append(
                Violation(
                    invariant: .d7, cause: "the blocking pool ran out: a cancel listener cannot start",
                    detail: "all \(bridge.poolCapacity) blocking threads are busy (\(leaked) of them blocked on invokes"
                        + " the plugin dropped); run \(run)'s waitForCancel waits for a thread, so until one frees its"
                        + " listener hears neither an expiration nor the safety timer"))
        }
        return found
    }

    /// D6: agreement about the cancel listener, and a listener for a running task.
    private func listeners(
        _ bridge: BridgeSnapshot, held: RequestID?, status: ServiceStatus, plugin s: PluginStateSnapshot
    ) -> [Violation] {
        var found: [Violation] = []
        let heldFor = bridge.calls.first { $0.request == held }?.run
        let heard = heldFor.map { bridge.listening.contains($0) } ?? false
        if bridge.listening.count > 1 || (held != nil && !heard) {
            let plugin = held.map { "holds waitForCancel #\($0)" } ?? "holds none"
            found.append(
                Violation(
                    invariant: .d6, cause: "host and plugin disagree about the pending cancel listener",
                    detail: "the host has \(bridge.listening.count) cancel listener(s) waiting"
                        + " (runs \(bridge.listening.map(String.init).joined(separator: ", "))); the plugin \(plugin)"))
        }
        if status.isRunning, let task = s.activeTask, !heard {
            found.append(
                Violation(
                    invariant: .d6, cause: "the service runs through a background task without a cancel listener",
                    detail: "run \(status.generation) is running and \(task.identifier) is active, but no cancel"
                        + " listener waits on a waitForCancel the plugin holds: expiration cannot reach the host"))
        }
        return found
    }
}
