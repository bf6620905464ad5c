import Dispatch
import HostProtocol
import Synchronization

/// Calls and notifications: registered, written in order, timed out.
extension PluginConnection {
    /// Calls a method with typed params and result.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) async throws(HostError)
        -> M.Result
    {
        let raw = try await call(method: M.name, params: PluginConnection.encode(params), timeout: timeout)
        return try PluginConnection.decode(M.self, raw)
    }

    /// Calls a method by name with raw params.
    public func call(method: String, params: JSONValue?, timeout: Duration? = nil) async throws(HostError) -> JSONValue
    {
        let id = nextID()
        let limit = timeout ?? options.defaultTimeout
        let result: Result<JSONValue, HostError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONValue, HostError>, Never>) in
                start(id: id, method: method, params: params, timeout: limit) { continuation.resume(returning: $0) }
                // Cancelled before the call was registered: onCancel found nothing to abandon.
                if Task.isCancelled { pending.abandon(id, with: .cancelled) }
            }
        } onCancel: {
            pending.abandon(id, with: .cancelled)
        }
        return try result.get()
    }

    /// Calls a method and blocks the calling thread until the answer (never call it
    /// from the connection's own callbacks).
    public func callBlocking(method: String, params: JSONValue?, timeout: Duration? = nil) throws(HostError)
        -> JSONValue
    {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<JSONValue, HostError>?>(nil)
        start(id: nextID(), method: method, params: params, timeout: timeout ?? options.defaultTimeout) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Typed blocking call.
    public func callBlocking<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) throws(HostError)
        -> M.Result
    {
        try PluginConnection.decode(
            M.self, try callBlocking(method: M.name, params: PluginConnection.encode(params), timeout: timeout))
    }

    /// Sends a call and returns its id at once; `completion` runs on the reader thread
    /// (or at once on failure). The building block of every call, and of pipelining.
    @discardableResult
    public func start(
        method: String, params: JSONValue?, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> RequestID {
        let id = nextID()
        let limit = timeout ?? options.defaultTimeout
        start(id: id, method: method, params: params, timeout: limit, completion: completion)
        return id
    }

    /// Sends a notification (no answer).
    public func notify(method: String, params: JSONValue?) throws(HostError) {
        if let failure = pending.failure { throw failure }
        var body: [UInt8] = []
        MessageWriter.appendNotification(method: method, params: params, to: &body)
        let error: HostError? = writer.withLock { _ in
            options.tap?(.sentNotification(RPCNotification(method: method, params: params)))
            return write(body, advancing: method == OSAdvanceTime.name)
        }
        if let error { throw error }
    }

    /// Fails every waiting call with `error` and every new one until ``resumeCalls()``
    /// (a simulation handing the connection to the next one).
    package func interruptCalls(with error: HostError) { pending.interrupt(error) }

    /// Lets calls through again after ``interruptCalls(with:)``.
    package func resumeCalls() { pending.resume() }

    /// Starts request ids from 1 again. Only once every id used so far has been
    /// answered or given up on (after a `plugin/reset` has been answered).
    package func restartIDs() {
        writer.withLock { $0 = 0 }
        pending.forgetAbandoned()
    }

    func nextID() -> RequestID {
        .int(
            writer.withLock { last in
                last += 1
                return last
            })
    }

    func start(
        id: RequestID, method: String, params: JSONValue?, timeout: Duration?, holdFor meets: HeldCall.Meets? = nil,
        completion originalCompletion: @escaping PendingTable.Completion
    ) {
        var completion: PendingTable.Completion = originalCompletion
        if let tap = options.tap {
            completion = { result in
                originalCompletion(result)
                tap(.settled(id))
            }
        }
        if let handoff = options.completionHandoff {
            let run = completion
            completion = { result in handoff(id) { run(result) } }
        }
        // The timeout is a timer source, started before the request is written (a plugin
        // that stops reading cannot hold the call past it: a write still blocked then stops
        // the plugin) and cancelled when the call completes. (It was an `asyncAfter`, which
        // keeps every call's closure alive until its deadline even when the answer came
        // long before: a host making 30,000 calls a second with a 60 s timeout held 1.8
        // million of them. Found by `plugin-host soak`.)
        let slot = timeout.map { _ in TimeoutSlot() }
        if let slot {
            let run = completion
            completion = { result in
                slot.finish()
                run(result)
            }
        }
        if let failure = pending.register(id, method: method, complete: completion) {
            completion(.failure(failure))
            return
        }
        var body: [UInt8] = []
        MessageWriter.appendRequest(id: id, method: method, params: params, to: &body)
        let request = Request(id: id, method: method, params: params)
        if let meets {
            held.withLock { $0 = HeldCall(request: request, body: body, meets: meets) }
            return
        }
        if let slot, let timeout {
            slot.arm(after: timeout) { [pending, transport] seconds, writing in
                pending.abandon(id, with: .timedOut(method: method, seconds: seconds))
                if writing { transport.terminate() }
            }
        }
        slot?.writing(true)
        let error: HostError? = writer.withLock { _ in
            // A held call goes out with the request it waits for, as one batch (`+Batching`).
            if let call = takeHeld(joining: method) {
                options.tap?(.sentRequest(call.request))
                options.tap?(.sentRequest(request))
                return write(
                    HeldCall.batch(call.body, body),
                    advancing: method == OSAdvanceTime.name || call.request.method == OSAdvanceTime.name)
            }
            options.tap?(.sentRequest(request))
            return write(body, advancing: method == OSAdvanceTime.name)
        }
        slot?.writing(false)
        if let error { pending.abandon(id, with: error) }
    }

    /// Writes bytes as they are (already framed: several frames, or deliberately broken
    /// ones), in order with the calls; their answers, if any, only reach the tap.
    public func sendRaw(_ bytes: [UInt8]) throws(HostError) {
        let advancing = bytes.count < 1 << 20 && String(decoding: bytes, as: UTF8.self).contains(OSAdvanceTime.name)
        let error: HostError? = writer.withLock { _ in write(framed: bytes, advancing: advancing) }
        if let error { throw error }
    }

    /// Frames and writes a body; `advancing` when it holds an `os/advanceTime` (the plugin
    /// may then write more before the host writes again: ``PeerLimits/maxUnpromptedFramesAfterAdvance``).
    func write(_ body: [UInt8], advancing: Bool = false) -> HostError? {
        write(framed: FrameEncoder.frame(body, framing: transport.framing), advancing: advancing)
    }

    private func write(framed bytes: [UInt8], advancing: Bool) -> HostError? {
        let limits = options.limits
        unprompted.withLock { meter in
            guard meter != nil else { return }  // flooded: nothing more is read
            meter =
                advancing
                ? OutputMeter(
                    frames: limits.maxUnpromptedFramesAfterAdvance, bytes: limits.maxUnpromptedBytesAfterAdvance)
                : OutputMeter(frames: limits.maxUnpromptedFrames, bytes: limits.maxUnpromptedBytes)
        }
        do {
            try transport.send(bytes)
            return nil
        } catch {
            // The plugin is gone; its exit will be reported by the reader shortly.
            return error
        }
    }

    package static func encode<P: JSONEncodable>(_ params: P) -> JSONValue? {
        params is EmptyParams ? nil : params.json
    }

    package static func decode<M: RPCMethod>(_: M.Type, _ raw: JSONValue) throws(HostError) -> M.Result {
        do {
            return try M.Result(json: raw)
        } catch {
            throw HostError.invalidResult(method: M.name, detail: error.description)
        }
    }
}
