import HostProtocol

/// JSON-RPC 2.0 dispatch: ids, notifications, batches, params, method lookup.
extension PluginEngine {
    /// Handles one classified message, answering into `batch` when it is part of one.
    func handle(_ message: Message, batch: BatchReply?) {
        switch message {
        // An invalid message or a response object was never accepted, so answering it
        // must not untrack its id: when it carries the id of a pending request (a
        // `waitForCancel`), that request is still pending and its id still taken.
        // (Found by FuzzTargets/OrderingsFuzzer: `{"id":1,"params":null,...}` sent while
        // waitForCancel #1 was pending let a later request reuse id 1.)
        case .invalid(let id, let error):
            answer(id: id, batch: batch, .failure(error))
        case .response(let response):
            let error = RPCError.invalidRequest("the plugin takes requests; a response object was sent")
            answer(id: response.id, batch: batch, .failure(error))
        case .notification(let n):
            dispatch(id: nil, method: n.method, params: n.params, batch: batch)
        case .request(let r):
            if refusesID(r.id) {
                let error = RPCError.invalidRequest("id \(r.id) is already used by a pending request")
                answer(id: r.id, batch: batch, .failure(error))
                return
            }
            dispatch(id: r.id, method: r.method, params: r.params, batch: batch)
        }
    }

    private func dispatch(id: RequestID?, method: String, params: JSONValue?, batch: BatchReply?) {
        let answersNotifications = options.faults.contains(.answerNotifications)
        // A notification's answers go nowhere (unless a fault says otherwise).
        let route =
            id.map { makeRoute(id: $0, batch: batch) }
            ?? (answersNotifications ? makeRoute(id: .null, batch: batch, tracksPending: false) : silentRoute)
        guard let entry = handlers.find(method) else {
            log("unknown method \"\(method)\"")
            let suggestion = MethodRegistry.suggestion(for: method, os: options.osMode)
            deliver(.failure(.methodNotFound(method, suggestion: suggestion)), for: route)
            return
        }
        var args = params ?? .object(JSONObject())
        if case .array = args {
            if options.faults.contains(.acceptArrayParams) {
                args = .object(JSONObject())
            } else {
                let error = RPCError.invalidParams("params must be an object (named parameters), not an array")
                deliver(.failure(error), for: route)
                return
            }
        }
        // A notification cannot wait for an answer: `waitForCancel` sent as one is ignored.
        if id == nil, method == WaitForCancel.name {
            log("waitForCancel sent as a notification: ignored (a notification cannot wait for an answer)")
            return
        }
        let invoke = Invoke(id: id, method: method, args: consume args, route: consume route)
        let handler = entry.handler
        switch entry.queue {
        case .main: dispatcher.asyncMain { handler(invoke) }
        case .ipc: handler(invoke)
        case .afterBoth:
            dispatcher.drain()
            handler(invoke)
        }
        // Most invokes are answered before the handler returns; only those still
        // unanswered (a stored waitForCancel, or any job of a batch not run yet) are pending.
        if let id, !invoke.isAnswered { pendingIDs.insert(id) }
    }

    /// Whether a request with this id is refused (`-32600`): a pending request has it.
    func refusesID(_ id: RequestID) -> Bool {
        pendingIDs.contains(id) && !options.faults.contains(.allowDuplicateID)
    }

    /// Where a method runs (`Dispatcher`): the OS acts on the main queue; the port queues
    /// the seed's invokes on `ipc`; anything else waits until both queues are idle.
    static func queue(of method: String) -> HandlerTable.Queue {
        if method.utf8.starts(with: "os/".utf8) { return .main }
        return seedInvokes.contains(method) ? .ipc : .afterBoth
    }

    private static let seedInvokes: Set = [
        StartKeepalive.name, WaitForCancel.name, CompleteBgTask.name, StopKeepalive.name, CancelCancelListener.name,
    ]

    /// Where answers to a request go: a response frame, or a slot of its batch.
    ///
    /// Through `engineHandle`, which holds the engine weakly: an invoke still pending
    /// when the engine is released (an embedder dropping a `PluginEngine` with a
    /// `waitForCancel` outstanding) is deinitialized after the engine and reports
    /// itself dropped through this route; with nobody left to answer, that is a no-op
    /// rather than a crash. (Found by FuzzTargets/OrderingsFuzzer.)
    func makeRoute(id: RequestID, batch: BatchReply?, tracksPending: Bool = true) -> Invoke.Route {
        Invoke.Route(
            sink: engineHandle, replyID: id, batch: batch, slot: batch?.addSlot() ?? 0, tracksPending: tracksPending,
            writesSecondAnswer: options.faults.contains(.secondAnswerWritten))
    }

    /// Answers a message that never became an invoke (its id is not tracked as pending).
    private func answer(id: RequestID, batch: BatchReply?, _ outcome: Result<JSONValue, RPCError>) {
        deliver(outcome, for: makeRoute(id: id, batch: batch, tracksPending: false))
    }

    /// Writes an answer where its route says (``EngineHandle`` forwards invokes' answers here).
    func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route) {
        guard let id = route.replyID else { return }
        if route.tracksPending { pendingIDs.remove(id) }
        if let batch = route.batch {
            if outcome == nil { invokeDropped(id: id) }
            batch.fill(route.slot, with: outcome.map { Response(id: id, outcome: $0) })
        } else if let outcome {
            output.write(id: id, outcome)
        } else {
            invokeDropped(id: id)
        }
    }

    private var silentRoute: Invoke.Route { Invoke.Route(sink: engineHandle, replyID: nil) }

    /// A second answer: a violation, written only by the `second-answer-written` mutant.
    func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route) {
        if route.writesSecondAnswer, let id = route.replyID {
            output.write(id: id, outcome)
        } else {
            world.events.violation(rule: "invoke.answered-once", detail: detail)
        }
    }

    /// An invoke released without an answer. A stored `waitForCancel` let go of by
    /// `waitForCancel` itself was superseded (the seed's single-pending rule under `--profile
    /// seed`): a plain drop. Anything else is lost, nobody will answer it and its caller waits
    /// forever: a `waitForCancel` let go of by another method's statement (`cleanup()`'s
    /// `pendingCancelInvoke = nil` after a race between the queues), or any invoke released
    /// outside a statement (a job lost on its way to the app): `invoke.never-answered`.
    fileprivate func invokeDropped(id: RequestID) {
        world.events.counters.dropped = (world.events.counters.dropped ?? 0) + 1
        let step = dispatcher.currentStep
        if let step, step.program == WaitForCancel.name {
            log(
                "request \(id) was dropped without an answer "
                    + "(the seed replaces a pending waitForCancel without answering it)")
            return
        }
        // Only `waitForCancel` is stored, so a statement can only let go of a waitForCancel.
        let what =
            step.map {
                "waitForCancel request \(id) was let go of without an answer by \($0.program) "
                    + "at \"\($0.label)\""
            } ?? "request \(id) was let go of without an answer outside any statement"
        world.events.violation(rule: "invoke.never-answered", detail: what + "; its caller waits forever")
    }
}
