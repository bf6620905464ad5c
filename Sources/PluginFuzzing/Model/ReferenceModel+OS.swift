import HostProtocol

/// The emulated OS: launch, expiration, the safety timer, time and auto-launch
/// (the contract's sections 4 and 5).
extension ReferenceModel {
    func registered(_ identifier: String) -> Bool {
        identifier == refreshID || identifier == processingID
    }

    /// Reads `identifier`; answers -32602 and returns nil when it is missing, not a
    /// string, or not registered.
    mutating func registeredIdentifier(_ id: RequestID?, _ p: JSONObject) -> String? {
        guard case .value(let identifier) = Self.string(p["identifier"]), registered(identifier) else {
            answer(id, .failure(.invalidParams("identifier")))
            return nil
        }
        return identifier
    }

    mutating func osLaunch(_ id: RequestID?, _ p: JSONObject) {
        guard let identifier = registeredIdentifier(id, p) else { return }
        guard state.task == nil, state.pending[identifier] != nil else {
            answer(id, .failure(.invalidState("cannot launch")))
            return
        }
        let task = launch(identifier)
        answer(
            id,
            .success([
                "identifier": .string(identifier), "kind": .string(task.kind.rawValue), "at": task.launchedAt.json,
            ]))
    }

    /// The OS launches the pending request: the task becomes active, then the
    /// plugin's launch handler runs (refresh: always a safety timer; processing:
    /// only when its timeout is > 0).
    @discardableResult
    mutating func launch(_ identifier: String) -> ModelState.Task {
        let request = state.pending.removeValue(forKey: identifier)!
        let task = ModelState.Task(identifier: identifier, kind: request.kind, launchedAt: state.now)
        state.task = task
        state.launched += 1
        event(
            TaskLaunchedEvent.name,
            ["identifier": .string(identifier), "kind": .string(task.kind.rawValue), "at": state.now.json])
        // The registered handler expects its own kind; a mismatched task is completed at once.
        let expected: TaskKind = identifier == refreshID ? .refresh : .processing
        guard task.kind == expected else {
            completeTask(success: false)
            return task
        }
        switch task.kind {
        case .refresh:
            startSafetyTimer(state.config.iosSafetyTimeoutSecs)
        case .processing:
            if let t = state.config.iosProcessingSafetyTimeoutSecs, t > 0 { startSafetyTimer(t) }
        }
        return task
    }

    /// one-timer: a new safety timer invalidates the previous one. Foundation
    /// turns an interval <= 0 into 0.1 ms.
    mutating func startSafetyTimer(_ seconds: Double) {
        if let t = state.timer, t.valid {
            event(SafetyTimerEvent.name, ["state": "invalidated", "deadline": t.deadline.json])
        }
        var interval = VirtualTime.nanoseconds(fromSeconds: seconds) ?? 100_000
        if interval <= 0 { interval = 100_000 }
        let deadline = state.now.adding(nanoseconds: interval)
        state.timer = ModelState.Timer(deadline: deadline, valid: true)
        event(SafetyTimerEvent.name, ["state": "started", "deadline": deadline.json])
    }

    mutating func osExpire(_ id: RequestID?, _ p: JSONObject) {
        guard let identifier = registeredIdentifier(id, p) else { return }
        guard let task = state.task, task.identifier == identifier, !task.expired else {
            answer(id, .failure(.invalidState("not running")))
            return
        }
        state.task?.expired = true
        state.expired += 1
        event(TaskExpiredEvent.name, ["identifier": .string(identifier), "at": state.now.json])
        // The expiration handler: resolve, complete with false, schedule next, clean up.
        resolvePending()
        completeTask(success: false)
        scheduleNext()
        cleanup()
        answer(id, .success(.null))
    }

    mutating func osAdvanceTime(_ id: RequestID?, _ p: JSONObject) {
        guard case .number(let n)? = p["seconds"], let duration = VirtualTime(seconds: n), duration.nanoseconds >= 0,
            (Double(n.literal) ?? -1) >= 0
        else {
            answer(id, .failure(.invalidParams("seconds")))
            return
        }
        guard advance(to: state.now.adding(nanoseconds: duration.nanoseconds)) else {
            answer(id, .failure(RPCError(code: .invalidState, message: "", data: ["now": state.now.json])))
            return
        }
        answer(id, .success(["now": state.now.json]))
    }

    /// The contract leaves it open; both sides bound one advance to this many timer
    /// firings plus launches, stopping at the last one's time (docs/protocol.md).
    static let maxEventsPerAdvance = 1000

    /// Fires each due timer and auto-launch at its own time; timers before launches
    /// at equal times, refresh before processing. False when it stopped early.
    mutating func advance(to target: VirtualTime) -> Bool {
        var count = 0
        while true {
            // A deadline that reaches the clock's limit never comes (docs/rules.md, timers).
            let timerDue = state.timer.flatMap {
                $0.valid && $0.deadline.nanoseconds < VirtualTime.limit ? $0.deadline : nil
            }
            let launch = nextAutoLaunch()
            let due = timerDue.map { $0 <= target } == true || launch.map { $0.at <= target } == true
            if due, count == Self.maxEventsPerAdvance { return false }
            if let t = timerDue, t <= target, launch.map({ t <= $0.at }) ?? true {
                state.now = max(state.now, t)
                fireSafetyTimer()
            } else if let l = launch, l.at <= target {
                state.now = max(state.now, l.at)
                self.launch(l.identifier)
            } else {
                break
            }
            count += 1
        }
        state.now = max(state.now, target)
        return true
    }

    func nextAutoLaunch() -> (identifier: String, at: VirtualTime)? {
        guard state.conditions.autoLaunch, state.task == nil else { return nil }
        var best: (identifier: String, at: VirtualTime, rank: Int)?
        for (identifier, r) in state.sortedPending {
            if r.kind == .processing {
                if r.power, !state.conditions.externalPower { continue }
                if r.network, !state.conditions.networkConnected { continue }
            }
            let at = max(r.earliest, state.now)
            let rank = r.kind == .refresh ? 0 : 1
            if let b = best, (b.at, b.rank) <= (at, rank) { continue }
            best = (identifier, at, rank)
        }
        return best.map { ($0.identifier, $0.at) }
    }

    /// The safety timer fires: with a task active, resolve, complete with false,
    /// schedule next, clean up; without one, nothing.
    mutating func fireSafetyTimer() {
        guard let t = state.timer else { return }
        state.timer?.valid = false
        event(SafetyTimerEvent.name, ["state": "fired", "deadline": t.deadline.json])
        guard state.task != nil else { return }
        resolvePending()
        completeTask(success: false)
        scheduleNext()
        cleanup()
    }

    mutating func osSetConditions(_ id: RequestID?, _ p: JSONObject) {
        var c = state.conditions
        if let v = p["backgroundRefreshStatus"] {
            guard let s = v.stringValue.flatMap(BackgroundRefreshStatus.init(rawValue:)) else {
                answer(id, .failure(.invalidParams("backgroundRefreshStatus")))
                return
            }
            c.backgroundRefreshStatus = s
        }
        for (key, path) in [
            ("externalPower", \Conditions.externalPower), ("networkConnected", \Conditions.networkConnected),
            ("autoLaunch", \Conditions.autoLaunch),
        ] {
            switch Self.bool(p[key]) {
            case .absent: break
            case .value(let b): c[keyPath: path] = b
            case .wrong:
                answer(id, .failure(.invalidParams(key)))
                return
            }
        }
        state.conditions = c
        answer(id, .success(c.json))
    }
}
