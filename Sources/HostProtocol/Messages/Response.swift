/// A JSON-RPC 2.0 response: a result or an error for one request id.
public struct Response: Hashable, Sendable {
    /// The id of the request answered (`null` when it could not be determined).
    public var id: RequestID
    /// The result, or the error.
    public var outcome: Result<JSONValue, RPCError>

    /// Creates a response.
    public init(id: RequestID, outcome: Result<JSONValue, RPCError>) {
        self.id = id
        self.outcome = outcome
    }

    /// A success response.
    public static func success(id: RequestID, result: JSONValue) -> Response {
        Response(id: id, outcome: .success(result))
    }

    /// An error response.
    public static func failure(id: RequestID, error: RPCError) -> Response {
        Response(id: id, outcome: .failure(error))
    }

    /// The result when this is a success response.
    public var result: JSONValue? {
        if case .success(let r) = outcome { return r }
        return nil
    }

    /// The error when this is an error response.
    public var error: RPCError? {
        if case .failure(let e) = outcome { return e }
        return nil
    }

    /// The response object as JSON.
    public var json: JSONValue {
        switch outcome {
        case .success(let result): ["jsonrpc": "2.0", "id": id.json, "result": result]
        case .failure(let error): ["jsonrpc": "2.0", "id": id.json, "error": error.json]
        }
    }
}
