/// A JSON-RPC error object: code, message and optional data.
///
/// This is the protocol layer's one error type; it is what an error response
/// carries on the wire.
///
/// ```swift
/// let e = RPCError.rejected(.completed)
/// e.code        // .invokeRejected (-32000)
/// e.json        // {"code":-32000,"data":{"reason":"completed"},"message":"..."}
/// ```
public struct RPCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error code.
    public var code: ErrorCode
    /// A short human description.
    public var message: String
    /// Extra structured data (`{"reason": ...}` for rejections).
    public var data: JSONValue?

    /// Creates an error.
    public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32700 with a reason.
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: .parseError, message: "Parse error: \(detail)")
    }

    /// -32600 with a reason.
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: .invalidRequest, message: "Invalid Request: \(detail)")
    }

    /// -32601 for a method name, with the name the caller probably meant, if any
    /// (`Method not found: startKeepAlive (did you mean startKeepalive?)`).
    public static func methodNotFound(_ method: String, suggestion: String? = nil) -> RPCError {
        let hint = suggestion.map { " (did you mean \($0)?)" } ?? ""
        return RPCError(code: .methodNotFound, message: "Method not found: \(method)\(hint)")
    }

    /// -32602 with a reason.
    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: .invalidParams, message: "Invalid params: \(detail)")
    }

    /// -32603 with a reason.
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: .internalError, message: "Internal error: \(detail)")
    }

    /// -32000 with `data.reason`.
    public static func rejected(_ reason: RejectReason) -> RPCError {
        RPCError(
            code: .invokeRejected, message: "invoke rejected: \(reason.rawValue)",
            data: ["reason": .string(reason.rawValue)])
    }

    /// -32000, reason `terminated`, for an invoke sent while the app is not running (`--os ios`).
    public static let appNotRunning = RPCError(
        code: .invokeRejected, message: "invoke rejected: terminated (the app is not running; os/openApp starts it)",
        data: ["reason": .string(RejectReason.terminated.rawValue)])

    /// -32001 with `data.scheduler`.
    public static func scheduler(_ kind: SchedulerErrorKind, identifier: String) -> RPCError {
        RPCError(
            code: .schedulerError,
            message: "BGTaskScheduler.submit failed for \(identifier): \(kind.rawValue)",
            data: ["scheduler": .string(kind.rawValue)]
        )
    }

    /// -32002 with a reason.
    public static func invalidState(_ detail: String) -> RPCError {
        RPCError(code: .invalidState, message: "Invalid state: \(detail)")
    }

    /// The reject reason, when this is a -32000 error with a known `data.reason`.
    public var rejectReason: RejectReason? {
        guard code == .invokeRejected, let r = data?["reason"]?.stringValue else { return nil }
        return RejectReason(rawValue: r)
    }

    /// The error object as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["code": .number(code.rawValue), "message": .string(message)]
        if let data { o["data"] = data }
        return .object(o)
    }

    /// Reads an error object; nil when it does not have an integer code and a string message.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.int64Value, let message = json["message"]?.stringValue else { return nil }
        self.init(code: ErrorCode(rawValue: Int(code)), message: message, data: json["data"])
    }

    public var description: String { "\(code.rawValue) \(message)" }
}
