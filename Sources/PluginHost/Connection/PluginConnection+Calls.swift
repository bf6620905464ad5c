import Dispatch
import HostProtocol
import Synchronization

/// The core's calls: ids, registration before the write, one writer in call order,
/// timeouts; notifications and raw bytes. (`async`, blocking and typed calls are
/// ``PluginCalling``'s, built on ``start(id:method:params:timeout:completion:)``.)
extension PluginConnection: PluginCalling {
    /// The connection itself.
    public var core: PluginConnection { self }

    /// Sends a notification (no answer).
    public func notify(method: String, params: JSONValue?) throws(HostError) {
        if let failure = pending.failure { throw failure }
        var body: [UInt8] = []
        MessageWriter.appendNotification(method: method, params: params, to: &body)
        let error: HostError? = writer.withLock { _ in
            options.tap?(.sentNotification(RPCNotification(method: method, params: params)))
            return write(body, advancing: method == OSAdvanceTime.name)
        }
        pumpInline()
        if let error { throw error }
    }

    /// Gives up on a call (a timeout, a cancellation, a wrapper failing its calls): it
    /// completes with `error` if still waiting, and a late answer is not an error.
    package func abandon(_ id: RequestID, with error: HostError) { pending.abandon(id, with: error) }

    /// Gives up on every call still waiting, as ``abandon(_:with:)`` does on each, at once.
    package func abandonAll(with error: HostError) { pending.abandonAll(error) }

    /// Forgets the ids given up on (for a wrapper that starts its ids from 1 again,
    /// once every id used so far has been answered or given up on).
    package func forgetAbandonedIDs() { pending.forgetAbandoned() }

    /// The error the connection failed with (every call fails with it), if it has.
    package var failure: HostError? { pending.failure }

    /// The id after the last one this connection gave.
    public func nextID() -> RequestID {
        .int(
            writer.withLock { last in
                last += 1
                return last
            })
    }

    /// Registers the call `id`, then writes it in call order.
    public func start(
        id: RequestID, method: String, params: JSONValue?, timeout: Duration?,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) {
        start(id: id, method: method, params: params, timeout: timeout, joining: nil, completion: completion)
    }

    /// ``start(id:method:params:timeout:completion:)``, where `ahead`, asked under the
    /// writer lock with the method, may give a request registered earlier
    /// (``register(id:method:params:completion:)``) to go out first, the two as one batch.
    package func start(
        id: RequestID, method: String, params: JSONValue?, timeout: Duration?,
        joining ahead: (@Sendable (String) -> EncodedRequest?)?,
        completion originalCompletion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) {
        var completion = tapped(id, originalCompletion)
        // The timeout is armed on the process's TimeoutClock before the request is written (a
        // plugin that stops reading cannot hold the call past it: a write still blocked then
        // stops the plugin) and cancelled when the call completes, which releases its closure
        // at once. (It was an `asyncAfter`, which kept every call's closure alive until its
        // deadline even when the answer came long before: a host making 30,000 calls a second
        // with a 60 s timeout held 1.8 million of them, found by `plugin-host soak`; then a
        // timer source per call, which woke the dispatch manager twice per call.)
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
        if let slot, let timeout {
            slot.arm(after: timeout) { [pending, transport] seconds, writing in
                pending.abandon(id, with: .timedOut(method: method, seconds: seconds))
                if writing { transport.terminate() }
            }
        }
        slot?.writing(true)
        let error: HostError? = writer.withLock { _ in
            // A request registered earlier goes out first, as one batch (`+Registered`).
            if let first = ahead?(method) {
                options.tap?(.sentRequest(first.request))
                options.tap?(.sentRequest(request))
                return write(
                    EncodedRequest.batch(first.body, body),
                    advancing: method == OSAdvanceTime.name || first.request.method == OSAdvanceTime.name)
            }
            options.tap?(.sentRequest(request))
            return write(body, advancing: method == OSAdvanceTime.name)
        }
        slot?.writing(false)
        if let error { pending.abandon(id, with: error) }
        pumpInline()
    }

    /// Writes bytes as they are (already framed: several frames, or deliberately broken
    /// ones), in order with the calls; their answers, if any, only reach the tap.
    public func sendRaw(_ bytes: [UInt8]) throws(HostError) {
        let advancing = bytes.count < 1 << 20 && String(decoding: bytes, as: UTF8.self).contains(OSAdvanceTime.name)
        let error: HostError? = writer.withLock { _ in write(framed: bytes, advancing: advancing) }
        pumpInline()
        if let error { throw error }
    }

    /// Frames and writes a body; `advancing` when it holds an `os/advanceTime` (the plugin
    /// may then write more before the host writes again: ``PeerLimits/maxUnpromptedFramesAfterAdvance``).
    /// `completion`, then the tap's ``ConnectionEvent/settled(_:)``.
    func tapped(_ id: RequestID, _ completion: @escaping PendingTable.Completion) -> PendingTable.Completion {
        guard let tap = options.tap else { return completion }
        return { result in
            completion(result)
            tap(.settled(id))
        }
    }

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
            // The plugin is gone; its exit will be reported by the reader (or the next pump) shortly.
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
