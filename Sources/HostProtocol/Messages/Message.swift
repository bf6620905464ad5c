/// One JSON-RPC 2.0 message object, classified.
///
/// ``Message/classify(_:)`` applies the structural rules of JSON-RPC 2.0 (and
/// the contract's section 2) to one parsed value: a request, a notification, a
/// response, or an invalid message carrying the `-32600` error it must get.
public enum Message: Hashable, Sendable {
    /// A request: it has an `id` and expects an answer.
    case request(Request)
    /// A notification: no `id`, so no answer.
    case notification(RPCNotification)
    /// A response object (`result` or `error`).
    case response(Response)
    /// Not a valid message; `id` is the request's id when it had a usable one, else null.
    case invalid(id: RequestID, error: RPCError)

    /// The message as JSON (an invalid message is written as its error response).
    public var json: JSONValue {
        switch self {
        case .request(let r): r.json
        case .notification(let n): n.json
        case .response(let r): r.json
        case .invalid(let id, let error): Response.failure(id: id, error: error).json
        }
    }

    /// Classifies one message object.
    ///
    /// - `jsonrpc` must be `"2.0"`; an `id` must be a string, number or null.
    /// - With `method`: it must be a string; `params`, when present, must be an
    ///   object or an array (an array is refused later, with `-32602`, by whoever
    ///   handles the method, so that notifications stay unanswered); any other
    ///   type is `-32600`.
    /// - Without `method`: a `result` or an `error` (and an `id`) make a response.
    public static func classify(_ value: JSONValue) -> Message {
        guard case .object(let o) = value else {
            return .invalid(id: .null, error: .invalidRequest("expected a request object, got \(value.typeName)"))
        }
        // One pass over the members (their keys are compared with ASCII literals, for
        // which `==` is a byte comparison).
        var fields = Fields()
        for member in o.members {
            switch member.key {
            case "jsonrpc": fields.version = member.value
            case "id": fields.id = member.value
            case "method": fields.method = member.value
            case "params": fields.params = member.value
            case "result": fields.result = member.value
            case "error": fields.error = member.value
            default: break
            }
        }
        return classify(fields)
    }

    /// The members of a message object that decide what it is.
    struct Fields {
        var version: JSONValue?, id: JSONValue?, method: JSONValue?, params: JSONValue?, result: JSONValue?
        var error: JSONValue?
    }

    /// Classifies a message object by its members.
    static func classify(_ fields: consuming Fields) -> Message {
        // Taken out of `fields` rather than copied (it is not used again).
        let version = fields.version.take()
        let rawID = fields.id.take()
        let method = fields.method.take()
        let params = fields.params.take()
        let result = fields.result.take()
        let errorValue = fields.error.take()
        let id = rawID.flatMap(RequestID.init(json:))
        let replyID = id ?? .null
        guard let version else {
            return .invalid(id: replyID, error: .invalidRequest("missing \"jsonrpc\": \"2.0\""))
        }
        guard case .string(let v) = version, v == "2.0" else {
            return .invalid(id: replyID, error: .invalidRequest("\"jsonrpc\" must be \"2.0\", got \(version)"))
        }
        if let rawID, id == nil {
            return .invalid(
                id: .null, error: .invalidRequest("\"id\" must be a string, a number or null, got \(rawID.typeName)"))
        }
        if let method {
            guard case .string(let name) = method else {
                return .invalid(
                    id: replyID, error: .invalidRequest("\"method\" must be a string, got \(method.typeName)"))
            }
            if let params {
                switch params {
                case .object, .array: break
                default:
                    return .invalid(
                        id: replyID, error: .invalidRequest("\"params\" must be an object, got \(params.typeName)"))
                }
            }
            if let id { return .request(Request(id: id, method: name, params: params)) }
            return .notification(RPCNotification(method: name, params: params))
        }
        if let id, result != nil || errorValue != nil {
            if let result, errorValue == nil {
                return .response(.success(id: id, result: result))
            }
            if let errorValue, result == nil, let error = RPCError(json: errorValue) {
                return .response(.failure(id: id, error: error))
            }
            return .invalid(
                id: id, error: .invalidRequest("a response must have exactly one of \"result\" and a valid \"error\""))
        }
        return .invalid(id: replyID, error: .invalidRequest("missing \"method\""))
    }
}
