/// A JSON-RPC 2.0 request: it has an id and expects exactly one response.
public struct Request: Hashable, Sendable {
    /// The id the response will carry.
    public var id: RequestID
    /// The method name.
    public var method: String
    /// The params as sent: nil when absent. The contract wants an object.
    public var params: JSONValue?

    /// Creates a request.
    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// The request object as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
        if let params { o["params"] = params }
        return .object(o)
    }
}
