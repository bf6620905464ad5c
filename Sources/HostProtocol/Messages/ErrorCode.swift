/// A JSON-RPC error code. The contract's codes are named constants; their
/// numeric values are public interface and pinned by tests.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// -32700: the frame is not JSON or not UTF-8.
    public static let parseError = ErrorCode(rawValue: -32700)
    /// -32600: not a request object, bad `jsonrpc`, bad `method`, frame too long, duplicate pending id.
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    /// -32601: unknown method.
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// -32602: params of the wrong shape or type.
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// -32603: a bug; never expected.
    public static let internalError = ErrorCode(rawValue: -32603)
    /// -32000: the plugin rejected an invoke (`data.reason` says why).
    public static let invokeRejected = ErrorCode(rawValue: -32000)
    /// -32001: a direct emulated `BGTaskScheduler` call failed (`data.scheduler`).
    public static let schedulerError = ErrorCode(rawValue: -32001)
    /// -32002: an `os/` control that cannot apply now.
    public static let invalidState = ErrorCode(rawValue: -32002)

    /// The name used in the contract's table ("Parse error", "InvokeRejected", ...).
    public var name: String {
        switch self {
        case .parseError: "Parse error"
        case .invalidRequest: "Invalid Request"
        case .methodNotFound: "Method not found"
        case .invalidParams: "Invalid params"
        case .internalError: "Internal error"
        case .invokeRejected: "InvokeRejected"
        case .schedulerError: "SchedulerError"
        case .invalidState: "InvalidState"
        default: "Error \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) (\(name))" }
}

/// Why the plugin rejected an invoke: the value of `data.reason` in a -32000 error.
public enum RejectReason: String, Sendable, CaseIterable, Hashable {
    /// `completeBgTask` rejected the pending `waitForCancel`.
    case completed
    /// `stopKeepalive` rejected the pending `waitForCancel`.
    case stopped
    /// `cancelCancelListener` rejected the pending `waitForCancel`.
    case listenerCancelled
    /// A newer `waitForCancel` replaced this one (strict profile only).
    case superseded
    /// `plugin/reset` rejected the pending `waitForCancel`, or an invoke whose body a blocked
    /// main thread held.
    case reset
    /// `shutdown` rejected the pending `waitForCancel`.
    case shutdown
    /// `--os ios`: the app's process ended (terminated, force-quit, killed by the
    /// watchdog) with the invoke pending, or the invoke was sent while the app is not running.
    case terminated
}

/// The emulated `BGTaskScheduler.Error` codes: the value of `data.scheduler` in a
/// -32001 error and of `error` in an `os/submitFailed` event.
public enum SchedulerErrorKind: String, Sendable, CaseIterable, Hashable, Error {
    /// Background refresh is denied or restricted.
    case unavailable
    /// More than 1 refresh or 10 processing requests would be pending.
    case tooManyPendingTaskRequests
    /// The identifier is not permitted by the Info.plist, or its background mode is missing.
    case notPermitted
}
