import HostProtocol

/// Everything that can go wrong talking to a plugin: the host layer's one error type.
public enum HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The plugin could not be started (missing, not executable, spawn failed).
    case launchFailed(String)
    /// The plugin's output ended: it exited (status known) or closed stdout (nil).
    case pluginExited(ExitStatus?)
    /// No answer within the call's timeout.
    case timedOut(method: String, seconds: Double)
    /// The plugin rejected the invoke (-32000), with `data.reason` when it gave one.
    case rejected(reason: RejectReason?, message: String)
    /// Any other JSON-RPC error response.
    case rpcError(RPCError)
    /// The plugin wrote something that is not a valid JSON-RPC frame.
    case protocolError(String)
    /// The result did not have the method's result shape.
    case invalidResult(method: String, detail: String)
    /// The calling task was cancelled; the call stopped waiting.
    case cancelled
    /// The connection was closed by the host.
    case closed
    /// Reading from or writing to the plugin failed while it was still running.
    case ioFailure(String)

    /// Maps an error response to the matching case.
    init(_ error: RPCError) {
        if error.code == .invokeRejected {
            self = .rejected(reason: error.rejectReason, message: error.message)
        } else {
            self = .rpcError(error)
        }
    }

    /// The JSON-RPC error code, when the plugin answered with an error.
    public var code: ErrorCode? {
        switch self {
        case .rejected: .invokeRejected
        case .rpcError(let e): e.code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .launchFailed(let why): "cannot start the plugin: \(why)"
        case .pluginExited(let status?): "the plugin \(status)"
        case .pluginExited(nil): "the plugin closed its output"
        case .timedOut(let method, let seconds): "\(method) got no answer within \(seconds) s"
        case .rejected(let reason?, _): "rejected: \(reason.rawValue)"
        case .rejected(nil, let message): "rejected: \(message)"
        case .rpcError(let e): "error \(e.code.rawValue): \(e.message)"
        case .protocolError(let why): "protocol error from the plugin: \(why)"
        case .invalidResult(let method, let detail): "\(method) returned an unexpected result: \(detail)"
        case .cancelled: "cancelled"
        case .closed: "the connection is closed"
        case .ioFailure(let why): why
        }
    }
}
