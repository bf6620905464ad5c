/// A JSON-RPC 2.0 notification: a request without an id, never answered.
public struct RPCNotification: Hashable, Sendable {
    /// The method (or event) name.
    public var method: String
    /// The params as sent: nil when absent.
    public var params: JSONValue?

    /// Creates a notification.
    public init(method: String, params: JSONValue? = nil) {
        self.method = method
        self.params = params
    }

    /// The notification object as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { o["params"] = params }
        return .object(o)
    }
}
