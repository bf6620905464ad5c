import HostProtocol

/// A request registered in the pending table and encoded, not written yet: a wrapper
/// that holds a call back (a simulation's, to make two reach the plugin at one instant)
/// writes it later, alone (``PluginConnection/writeRegistered(_:)``) or ahead of another
/// request as one JSON-RPC batch.
package struct EncodedRequest: Sendable {
    /// The request.
    package let request: Request
    /// Its encoded body (not framed).
    package let body: [UInt8]

    /// `[first,second]`, each member already encoded.
    package static func batch(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "[")] + first + [UInt8(ascii: ",")] + second + [UInt8(ascii: "]")]
    }
}

extension PluginConnection {
    /// Registers the call `id` without writing it and returns it encoded; nil when it
    /// cannot be registered (the connection has failed), after `completion` has run with
    /// the failure. The call has no timeout; its completion runs when its answer comes.
    package func register(
        id: RequestID, method: String, params: JSONValue?,
        completion originalCompletion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> EncodedRequest? {
        let completion = tapped(id, originalCompletion)
        if let failure = pending.register(id, method: method, complete: completion) {
            completion(.failure(failure))
            return nil
        }
        var body: [UInt8] = []
        MessageWriter.appendRequest(id: id, method: method, params: params, to: &body)
        return EncodedRequest(request: Request(id: id, method: method, params: params), body: body)
    }

    /// Writes the registered request `take` gives, under the writer lock (in call order
    /// with every other write); returns it, or nil when `take` gave none. A failed write
    /// fails the call.
    @discardableResult
    package func writeRegistered(_ take: () -> EncodedRequest?) -> EncodedRequest? {
        let (call, error) = writer.withLock { _ -> (EncodedRequest?, HostError?) in
            guard let call = take() else { return (nil, nil) }
            options.tap?(.sentRequest(call.request))
            return (call, write(call.body, advancing: call.request.method == OSAdvanceTime.name))
        }
        if let call, let error { pending.abandon(call.request.id, with: error) }
        pumpInline()
        return call
    }
}
