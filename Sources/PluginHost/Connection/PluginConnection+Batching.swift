import HostProtocol

/// A call held back to reach the plugin at the same instant as another: both go out as
/// one JSON-RPC batch, the held call first.
///
/// Under the plugin's `--dispatch tauri` the members of one batch run at once, invokes on
/// the `ipc` queue and `os/` controls on the main queue: that is how a simulation makes an
/// OS event and a host invoke happen at one instant (`SystemSimulation+Together.swift`).
/// The batch's reply is one array, and a `waitForCancel` in it holds it back until it is
/// answered (contract section 2): the held call's answer can come late, and its completion
/// runs whenever it does.
///
/// ```swift
/// let id = connection.hold(method: "os/expire", params: ["identifier": "com.example.app.bg-refresh"],
///                          meeting: .method("waitForCancel")) { result in print(result) }
/// // ... the host writes its waitForCancel: [os/expire, waitForCancel] go out as one batch
/// connection.releaseHeld()   // false: it went out with the waitForCancel
/// ```
public struct HeldCall: Sendable {
    /// Which request the held call goes out with.
    public enum Meets: Sendable, Hashable {
        /// The next request written, whatever its method.
        case any
        /// The next request of this method.
        case method(String)
    }

    let request: Request
    let body: [UInt8]
    let meets: Meets

    /// `[first,second]`, each member already encoded.
    static func batch(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "[")] + first + [UInt8(ascii: ",")] + second + [UInt8(ascii: "]")]
    }
}

extension PluginConnection {
    /// Registers a call and holds it back until this connection writes the request it
    /// `meets`; the two then go out as one batch (the held call first). Only one call is
    /// held at a time (a second replaces nothing: it is an error to hold two). Returns the
    /// held call's id; `completion` runs when its answer comes (from the reader thread, or
    /// handed off), or at once if it cannot be registered.
    @discardableResult
    public func hold(
        method: String, params: JSONValue?, meeting meets: HeldCall.Meets,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> RequestID {
        precondition(held.withLock { $0 == nil }, "a call is already held")
        let id = nextID()
        start(id: id, method: method, params: params, timeout: nil, holdFor: meets, completion: completion)
        return id
    }

    /// Whether a call is held (registered, not written yet).
    public var holdsACall: Bool { held.withLock { $0 != nil } }

    /// Writes the held call alone if it has not gone out yet; true when it had not.
    @discardableResult
    public func releaseHeld() -> Bool {
        let (call, error) = writer.withLock { _ -> (HeldCall?, HostError?) in
            guard
                let call = held.withLock({ h in
                    defer { h = nil }
                    return h
                })
            else { return (nil, nil) }
            options.tap?(.sentRequest(call.request))
            return (call, write(call.body, advancing: call.request.method == OSAdvanceTime.name))
        }
        if let call, let error { pending.abandon(call.request.id, with: error) }
        return call != nil
    }

    /// The held call, taken, when a request of `method` is the one it meets (called under
    /// the writer lock).
    func takeHeld(joining method: String) -> HeldCall? {
        held.withLock { h in
            guard let call = h, call.meets == .any || call.meets == .method(method) else { return nil }
            h = nil
            return call
        }
    }
}
