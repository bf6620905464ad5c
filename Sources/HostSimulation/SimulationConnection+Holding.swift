import HostProtocol
import PluginHost

/// Holding a call back to go out with another as one batch (``HeldCall``).
extension SimulationConnection {
    /// Registers a call and holds it back until this connection writes the request it
    /// `meets`; the two then go out as one batch (the held call first). Only one call is
    /// held at a time (a second replaces nothing: it is an error to hold two). Returns the
    /// held call's id; `completion` runs when its answer comes (handed off), or at once
    /// if it cannot be registered.
    @discardableResult
    public func hold(
        method: String, params: JSONValue?, meeting meets: HeldCall.Meets,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> RequestID {
        precondition(!holdsACall, "a call is already held")
        let id = nextID()
        let completion = handedOff(id, completion)
        if let refused = refusal() {
            completion(.failure(refused))
            return id
        }
        if let call = core.register(id: id, method: method, params: params, completion: completion) {
            state.withLock { $0.held = HeldCall(call: call, meets: meets) }
        }
        return id
    }

    /// Whether a call is held (registered, not written yet).
    public var holdsACall: Bool { state.withLock { $0.held != nil } }

    /// Writes the held call alone if it has not gone out yet; true when it had not.
    @discardableResult
    public func releaseHeld() -> Bool {
        core.writeRegistered {
            state.withLock { s in
                defer { s.held = nil }
                return s.held?.call
            }
        } != nil
    }
}
