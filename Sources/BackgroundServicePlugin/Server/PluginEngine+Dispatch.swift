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
            makeRoute(id: id, batch: batch, tracksPending: false).deliver(.failure(error))
        case .response(let response):
            let error = RPCError.invalidRequest("the plugin takes requests; a response object was sent")
            makeRoute(id: response.id, batch: batch, tracksPending: false).deliver(.failure(error))
        case .notification(let n):
            dispatch(id: nil, method: n.method, params: n.params, batch: batch)
        case .request(let r):
            if pendingIDs.contains(r.id), !options.faults.contains(.allowDuplicateID) {
                let error = RPCError.invalidRequest("id \(r.id) is already used by a pending request")
                makeRoute(id: r.id, batch: batch, tracksPending: false).deliver(.failure(error))
                return
            }
            dispatch(id: r.id, method: r.method, params: r.params, batch: batch)
        }
    }

    private func dispatch(id: RequestID?, method: String, params: JSONValue?, batch: BatchReply?) {
        let answersNotifications = options.faults.contains(.answerNotifications)
        // A notification's answers go nowhere (unless a fault says otherwise).
        let route = id.map { makeRoute(id: $0, batch: batch) }
            ?? (answersNotifications ? makeRoute(id: .null, batch: batch, tracksPending: false) : silentRoute)
        guard let handler = handlers[method] else {
            log("unknown method \"\(method)\"")
            let suggestion = MethodRegistry.suggestion(for: method, os: options.osMode)
            route.deliver(.failure(.methodNotFound(method, suggestion: suggestion)))
            return
        }
        var args = params ?? .object([:])
        if case .array = args {
            if options.faults.contains(.acceptArrayParams) {
                args = .object([:])
            } else {
                route.deliver(.failure(.invalidParams("params must be an object (named parameters), not an array")))
                return
            }
        }
        // A notification cannot wait for an answer: `waitForCancel` sent as one is ignored.
        if id == nil, method == WaitForCancel.name {
            log("waitForCancel sent as a notification: ignored (a notification cannot wait for an answer)")
            return
        }
        let invoke = Invoke(id: id, method: method, args: args, route: route)
        // Where it runs (`Dispatcher`): the OS acts on the main queue; the port queues the
        // seed's invokes on `ipc`; anything else waits until both queues are idle.
        if method.utf8.starts(with: "os/".utf8) {
            dispatcher.asyncMain { handler(invoke) }
        } else {
            if !Self.seedInvokes.contains(method) { dispatcher.drain() }
            handler(invoke)
        }
        // Most invokes are answered before the handler returns; only those still
        // unanswered (a stored waitForCancel, or any job of a batch not run yet) are pending.
        if let id, !invoke.isAnswered { pendingIDs.insert(id) }
    }

    private static let seedInvokes: Set = [
        StartKeepalive.name, WaitForCancel.name, CompleteBgTask.name, StopKeepalive.name, CancelCancelListener.name,
    ]

    /// Where answers to a request go: a response frame, or a slot of its batch.
    func makeRoute(id: RequestID, batch: BatchReply?, tracksPending: Bool = true) -> Invoke.Route {
        let slot = batch?.addSlot()
        // Through `handle`, which holds the engine weakly: an invoke still pending when
        // the engine is released (an embedder dropping a `PluginEngine` with a
        // `waitForCancel` outstanding) is deinitialized after the engine and reports
        // itself dropped through this route; with nobody left to answer, that is a
        // no-op rather than a crash. (Found by FuzzTargets/OrderingsFuzzer.)
        let handle = self.engineHandle
        var route = Invoke.Route(
            deliver: { outcome in
                guard let engine = handle.engine else { return }
                if tracksPending { engine.pendingIDs.remove(id) }
                if outcome == nil { engine.invokeDropped(id: id) }
                let response = outcome.map { Response(id: id, outcome: $0) }
                if let batch, let slot {
                    batch.fill(slot, with: response)
                } else if let response {
                    engine.output.write(response)
                }
            },
            answeredTwice: { detail in handle.engine?.world.events.violation(rule: "invoke.answered-once", detail: detail) })
        if options.faults.contains(.secondAnswerWritten) {
            // Mutant: the second answer goes to the wire as a response of its own, unreported.
            route = Invoke.Route(deliver: route.deliver, answeredTwice: { _ in }) { outcome in
                handle.engine?.output.write(Response(id: id, outcome: outcome))
            }
        }
        return route
    }

    private var silentRoute: Invoke.Route {
        let handle = self.engineHandle
        return Invoke.Route(deliver: { _ in }, answeredTwice: { detail in
            handle.engine?.world.events.violation(rule: "invoke.answered-once", detail: detail)
        })
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
        let what = step.map { "waitForCancel request \(id) was let go of without an answer by \($0.program) "
            + "at \"\($0.label)\"" } ?? "request \(id) was let go of without an answer outside any statement"
        world.events.violation(rule: "invoke.never-answered", detail: what + "; its caller waits forever")
    }
}
