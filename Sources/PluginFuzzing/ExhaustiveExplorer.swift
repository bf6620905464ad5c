import HostProtocol

/// Exhaustive exploration: every sequence up to a depth over a small alphabet,
/// with states deduplicated by the plugin's `plugin/state` snapshot, every reply
/// compared with the reference model.
///
/// The alphabet (documented in docs/fuzzing.md):
/// `start` (startKeepalive {}), `wait` (waitForCancel), `complete` (completeBgTask
/// success true), `stop` (stopKeepalive), `cancel` (cancelCancelListener),
/// `launch-refresh`, `launch-processing` (os/launch), `expire` (os/expire of the
/// running task, or of the refresh task), `due` (os/advanceTime to the next due
/// time: the safety timer, else the earliest begin date, else 1 s),
/// `just-before` (the same minus one tick), `start-fast` (startKeepalive with a 1 s
/// refresh timer, a 2 s processing timer and begin dates of 0 minutes), `auto-on`
/// and `auto-off` (os/setConditions autoLaunch).
public final class ExhaustiveExplorer {
    /// A letter of the alphabet.
    public enum Letter: String, CaseIterable, Sendable {
        /// startKeepalive {}, waitForCancel, completeBgTask (success), stopKeepalive, cancelCancelListener.
        case start, wait, complete, stop, cancel
        /// os/launch of the refresh task.
        case launchRefresh = "launch-refresh"
        /// os/launch of the processing task.
        case launchProcessing = "launch-processing"
        /// os/expire of the running task (else the refresh task); os/advanceTime to the next due time.
        case expire, due
        /// os/advanceTime to one tick before the next due time.
        case justBefore = "just-before"
        /// startKeepalive with short timers and begin dates of 0 minutes.
        case startFast = "start-fast"
        /// os/setConditions autoLaunch true.
        case autoOn = "auto-on"
        /// os/setConditions autoLaunch false.
        case autoOff = "auto-off"
    }

    let driver: PluginDriver
    let profile: Profile
    let progress: FuzzProgress
    /// The plugin's `--dispatch`: under `tauri` racing batches join the alphabet
    /// (`ExhaustiveExplorer+Races.swift`).
    let dispatch: DispatchMode
    var nextID = 0
    private var resetID = 0
    /// Sequences run and distinct states found.
    public private(set) var sequencesRun = 0
    /// Steps sent, over all sequences.
    public private(set) var stepsRun = 0
    /// Failures found (first per signature).
    public private(set) var failures: [String: [FuzzStep]] = [:]

    /// Creates an explorer around a running plugin (started with the same `--dispatch`).
    public init(driver: PluginDriver, profile: Profile, progress: FuzzProgress, dispatch: DispatchMode = .serial) {
        self.driver = driver
        self.profile = profile
        self.progress = progress
        self.dispatch = dispatch
    }

    /// The step a letter means in the state `model` is in.
    func step(_ letter: Letter, model: ReferenceModel) -> FuzzStep {
        nextID += 1
        let id = RequestID.int(nextID)
        let refresh = "com.example.app.bg-refresh"
        let processing = "com.example.app.bg-processing"
        switch letter {
        case .start: return .request(id, StartKeepalive.name, .object([:]))
        case .startFast:
            return .request(
                id, StartKeepalive.name,
                [
                    "iosSafetyTimeoutSecs": 1, "iosProcessingSafetyTimeoutSecs": 2,
                    "iosEarliestRefreshBeginMinutes": 0, "iosEarliestProcessingBeginMinutes": 0,
                ])
        case .autoOn: return .request(id, OSSetConditions.name, ["autoLaunch": true])
        case .autoOff: return .request(id, OSSetConditions.name, ["autoLaunch": false])
        case .wait: return .request(id, WaitForCancel.name)
        case .complete: return .request(id, CompleteBgTask.name, ["success": true])
        case .stop: return .request(id, StopKeepalive.name)
        case .cancel: return .request(id, CancelCancelListener.name)
        case .launchRefresh: return .request(id, OSLaunch.name, ["identifier": .string(refresh)])
        case .launchProcessing: return .request(id, OSLaunch.name, ["identifier": .string(processing)])
        case .expire: return .request(id, OSExpire.name, ["identifier": .string(model.activeTaskIdentifier ?? refresh)])
        case .due, .justBefore:
            let due = model.safetyTimerDeadline ?? model.pendingRequests.map(\.1).min() ?? model.now.adding(seconds: 1)
            var ns = max(0, due.nanoseconds - model.now.nanoseconds)
            if letter == .justBefore { ns = max(0, ns - 1) }
            return .request(id, OSAdvanceTime.name, ["seconds": VirtualTime(nanoseconds: ns).json])
        }
    }

    /// Breadth-first over sequences up to `depth`; returns the number of distinct states.
    public func explore(depth: Int) throws(PluginDriver.DriverError) -> Int {
        var seen: Set<String> = []
        var frontier: [[Move]] = [[]]
        seen.insert(try fingerprint(of: []).state)
        for _ in 0..<depth {
            var next: [[Move]] = []
            for path in frontier {
                try forEachMove(after: path) { candidate throws(PluginDriver.DriverError) in
                    let (print, decisions) = try fingerprint(of: candidate)
                    if seen.insert(print).inserted { next.append(candidate) }
                    progress.update(cases: sequencesRun, steps: stepsRun, findings: failures.count, states: seen.count)
                    return decisions
                }
            }
            frontier = next
            if frontier.isEmpty { break }
        }
        return seen.count
    }

    /// Runs a sequence (checking every reply against the model) and returns the
    /// plugin's state with ids and counters left out and times made relative to now, and
    /// how many interleaving decisions its last step took (a racing batch).
    private func fingerprint(of moves: [Move]) throws(PluginDriver.DriverError) -> (state: String, decisions: Int) {
        var model = ReferenceModel(profile: profile, dispatch: dispatch)
        var steps: [FuzzStep] = []
        for move in moves {
            let s = step(move, model: model)
            _ = model.apply(s.input)
            steps.append(s)
        }
        nextID += 1
        let probe = FuzzStep.request(.string("~state-\(nextID)"), PluginStateMethod.name)
        steps.append(probe)
        resetID += 1
        let outcome = PluginCase(steps: steps, dispatch: dispatch).run(
            on: driver, profile: profile, resetID: resetID, keepFrames: true)
        sequencesRun += 1
        stepsRun += steps.count
        if let error = outcome.error { throw error }
        if let signature = outcome.signature, failures[signature] == nil {
            failures[signature] = Array(steps.dropLast())
            progress.finding(signature, seed: 0)
        }
        let state = outcome.actual.last?.last(where: { $0["id"] == probe.id?.json })?["result"] ?? .null
        let decisions = outcome.taken.count >= 2 ? outcome.taken[outcome.taken.count - 2].count : 0
        return (Self.canonical(state).description, decisions)
    }

    /// The state without what does not change future behaviour: ids, counters, and
    /// absolute times (made relative to `now`).
    static func canonical(_ state: JSONValue) -> JSONValue {
        guard case .object(var o) = state, let now = o["now"].flatMap({ VirtualTime(jsonValue: $0) }) else {
            return state
        }
        func relative(_ v: JSONValue?) -> JSONValue {
            guard let v, let t = VirtualTime(jsonValue: v) else { return v ?? .null }
            return VirtualTime(nanoseconds: t.nanoseconds - now.nanoseconds).json
        }
        o.removeValue(forKey: "now")
        o.removeValue(forKey: "counters")
        o["pendingCancelInvoke"] = .bool(o["pendingCancelInvoke"] != .null || o["cancelInvokePending"] == .bool(true))
        o.removeValue(forKey: "cancelInvokePending")
        if case .object(var t)? = o["safetyTimer"] {
            t["deadline"] = relative(t["deadline"])
            o["safetyTimer"] = .object(t)
        }
        if case .object(var a)? = o["activeTask"] {
            a["launchedAt"] = relative(a["launchedAt"])
            o["activeTask"] = .object(a)
        }
        if case .array(let requests)? = o["pendingRequests"] {
            o["pendingRequests"] = .array(
                requests.map { r in
                    guard case .object(var m) = r else { return r }
                    m["earliestBeginDate"] = relative(m["earliestBeginDate"])
                    return .object(m)
                })
        }
        return .object(o)
    }
}
