import HostProtocol

/// The five invokes, as the contract's section 3 states them.
extension ReferenceModel {
    /// How a JSON member reads against a contract type: absent, the right type, or wrong.
    enum Field<T> {
        case absent
        case value(T)
        case wrong
    }

    static func number(_ v: JSONValue?) -> Field<Double> {
        guard let v else { return .absent }
        if case .number(let n) = v, let d = Double(n.literal), d.isFinite { return .value(d) }
        return .wrong
    }

    static func bool(_ v: JSONValue?) -> Field<Bool> {
        guard let v else { return .absent }
        if case .bool(let b) = v { return .value(b) }
        return .wrong
    }

    static func string(_ v: JSONValue?) -> Field<String> {
        guard let v else { return .absent }
        if case .string(let s) = v { return .value(s) }
        return .wrong
    }

    mutating func startKeepalive(_ id: RequestID?, _ p: JSONObject) {
        let safety = Self.number(p["iosSafetyTimeoutSecs"])
        let processing = Self.number(p["iosProcessingSafetyTimeoutSecs"])
        let processingIsNull = p["iosProcessingSafetyTimeoutSecs"] == .null
        let refreshMinutes = Self.number(p["iosEarliestRefreshBeginMinutes"])
        let processingMinutes = Self.number(p["iosEarliestProcessingBeginMinutes"])
        let power = Self.bool(p["iosRequiresExternalPower"])
        let network = Self.bool(p["iosRequiresNetworkConnectivity"])
        if profile == .strict {
            // Any wrong type (null only allowed for the processing timeout): -32602, nothing changes.
            var wrong = false
            for f in [safety, refreshMinutes, processingMinutes] { if case .wrong = f { wrong = true } }
            if case .wrong = processing, !processingIsNull { wrong = true }
            for f in [power, network] { if case .wrong = f { wrong = true } }
            for key in ["label", "foregroundServiceType"] { if case .wrong = Self.string(p[key]) { wrong = true } }
            if wrong {
                answer(id, .failure(.invalidParams("wrong type")))
                return
            }
            if processingIsNull { state.config.iosProcessingSafetyTimeoutSecs = nil }
        }
        // config-persists: given fields of the right type replace, absent ones keep.
        if case .value(let v) = safety { state.config.iosSafetyTimeoutSecs = v }
        if case .value(let v) = processing { state.config.iosProcessingSafetyTimeoutSecs = v }
        if case .value(let v) = refreshMinutes { state.config.iosEarliestRefreshBeginMinutes = v }
        if case .value(let v) = processingMinutes { state.config.iosEarliestProcessingBeginMinutes = v }
        if case .value(let v) = power { state.config.iosRequiresExternalPower = v }
        if case .value(let v) = network { state.config.iosRequiresNetworkConnectivity = v }
        scheduleNext()
        answer(id, .success(.null))
    }

    mutating func waitForCancel(_ id: RequestID?) {
        // A notification cannot wait: ignored.
        guard let id else { return }
        if let old = state.cancelInvoke {
            switch profile {
            case .seed:
                state.dropped += 1  // replaced, never answered
                settleCancel(nil)
            case .strict: answerStored(old, .failure(.rejected(.superseded)))
            }
        }
        state.cancelInvoke = id
        state.cancelSlot = currentSlot.map { .reading($0) }
    }

    mutating func completeBgTask(_ id: RequestID?, _ p: JSONObject) {
        var success = true
        switch Self.bool(p["success"]) {
        case .value(let b): success = b
        case .absent: break
        case .wrong:
            if profile == .strict {
                answer(id, .failure(.invalidParams("success")))
                return
            }
        }
        let hadActiveTask = state.task != nil
        completeTask(success: success)
        rejectPending(.completed)
        if hadActiveTask { scheduleNext() }
        cleanup()
        answer(id, .success(.null))
    }

    mutating func stopKeepalive(_ id: RequestID?) {
        cancelRequest(refreshID)
        cancelRequest(processingID)
        rejectPending(.stopped)
        completeTask(success: false)
        cleanup()
        answer(id, .success(.null))
    }

    mutating func cancelCancelListener(_ id: RequestID?) {
        rejectPending(.listenerCancelled)
        answer(id, .success(.null))
    }

    // MARK: - Shared steps

    mutating func rejectPending(_ reason: RejectReason) {
        guard let pending = state.cancelInvoke else { return }
        answerStored(pending, .failure(.rejected(reason)))
        state.cancelInvoke = nil
    }

    mutating func resolvePending() {
        guard let pending = state.cancelInvoke else { return }
        answerStored(pending, .success(.null))
        state.cancelInvoke = nil
    }

    /// Completes the active task, if any (exactly once).
    mutating func completeTask(success: Bool) {
        guard let task = state.task else { return }
        state.task = nil
        state.completed += 1
        event(
            TaskCompletedEvent.name,
            ["identifier": .string(task.identifier), "success": .bool(success), "at": state.now.json])
    }

    /// Invalidates the safety timer (an event only when it was still valid).
    mutating func cleanup() {
        state.task = nil
        state.cancelInvoke = nil
        if let t = state.timer, t.valid {
            event(SafetyTimerEvent.name, ["state": "invalidated", "deadline": t.deadline.json])
        }
        state.timer = nil
    }

    mutating func scheduleNext() {
        let c = state.config
        submit(
            refreshID,
            ModelState.PendingRequest(
                kind: .refresh, earliest: state.now.adding(seconds: c.iosEarliestRefreshBeginMinutes * 60),
                power: false, network: false))
        submit(
            processingID,
            ModelState.PendingRequest(
                kind: .processing, earliest: state.now.adding(seconds: c.iosEarliestProcessingBeginMinutes * 60),
                power: c.iosRequiresExternalPower, network: c.iosRequiresNetworkConnectivity))
    }

    /// `submit` under the default Info.plist: only background refresh can refuse.
    mutating func submit(_ identifier: String, _ request: ModelState.PendingRequest) {
        guard state.conditions.backgroundRefreshStatus == .available else {
            event(SubmitFailedEvent.name, ["identifier": .string(identifier), "error": "unavailable"])
            return
        }
        state.pending[identifier] = request
        event(RequestSubmittedEvent.name, request.json(identifier))
    }

    mutating func cancelRequest(_ identifier: String) {
        guard state.pending.removeValue(forKey: identifier) != nil else { return }
        event(RequestCancelledEvent.name, ["identifier": .string(identifier)])
    }
}
