import HostProtocol

/// Everything that can go wrong talking to a plugin: the host layer's one error type.
///
/// A struct with a ``code`` rather than an enum, so that a new kind of failure is a
/// new code, not a source break for every `switch` in the clients. Match on the code
/// and read what the failure carries from the accessors:
///
/// ```swift
/// do {
///     try await client.os.launch(identifier)
/// } catch let e where e.code == .pluginExited {
///     print("the plugin ended: \(e.exitStatus.map(String.init(describing:)) ?? "its output closed")")
/// } catch let e where e.rpcCode == .invalidState {
///     print("refused: \(e.rpcError?.message ?? "")")
/// }
/// ```
public struct HostError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Backing: Sendable, Hashable {
        case launchFailed(String)
        case pluginExited(ExitStatus?)
        case timedOut(method: String, seconds: Double)
        case rejected(reason: RejectReason?, message: String)
        case rpcError(RPCError)
        case protocolError(String)
        case invalidResult(method: String, detail: String)
        case cancelled
        case closed
        case ioFailure(String)
        case flooding(String)
    }

    private let backing: Backing

    private init(_ backing: Backing) { self.backing = backing }

    /// The plugin could not be started (missing, not executable, spawn failed, bad arguments).
    public static func launchFailed(_ why: String) -> HostError { HostError(.launchFailed(why)) }
    /// The plugin's output ended: it exited (status known) or closed its output (nil).
    public static func pluginExited(_ status: ExitStatus?) -> HostError { HostError(.pluginExited(status)) }
    /// No answer within the call's timeout.
    public static func timedOut(method: String, seconds: Double) -> HostError {
        HostError(.timedOut(method: method, seconds: seconds))
    }
    /// The plugin rejected the invoke (-32000), with `data.reason` when it gave one.
    public static func rejected(reason: RejectReason?, message: String) -> HostError {
        HostError(.rejected(reason: reason, message: message))
    }
    /// Any other JSON-RPC error response.
    public static func rpcError(_ error: RPCError) -> HostError { HostError(.rpcError(error)) }
    /// The plugin wrote something that is not a valid JSON-RPC frame.
    public static func protocolError(_ why: String) -> HostError { HostError(.protocolError(why)) }
    /// The result did not have the method's result shape.
    public static func invalidResult(method: String, detail: String) -> HostError {
        HostError(.invalidResult(method: method, detail: detail))
    }
    /// The calling task was cancelled; the call stopped waiting.
    public static let cancelled = HostError(.cancelled)
    /// The connection was closed by the host.
    public static let closed = HostError(.closed)
    /// Reading from or writing to the plugin failed while it was still running.
    public static func ioFailure(_ why: String) -> HostError { HostError(.ioFailure(why)) }
    /// The plugin wrote more than the host holds (``PeerLimits``): `why` gives the
    /// figures and the bound. The plugin has been stopped.
    public static func flooding(_ why: String) -> HostError { HostError(.flooding(why)) }

    /// The host's error for an error response: -32000 is a rejection (with its
    /// `data.reason`), every other code an ``Code/rpcError``.
    public init(_ error: RPCError) {
        if error.code == .invokeRejected {
            backing = .rejected(reason: error.rejectReason, message: error.message)
        } else {
            backing = .rpcError(error)
        }
    }

    /// What kind of failure this is.
    public var code: Code {
        switch backing {
        case .launchFailed: .launchFailed
        case .pluginExited: .pluginExited
        case .timedOut: .timedOut
        case .rejected: .rejected
        case .rpcError: .rpcError
        case .protocolError: .protocolError
        case .invalidResult: .invalidResult
        case .cancelled: .cancelled
        case .closed: .closed
        case .ioFailure: .ioFailure
        case .flooding: .flooding
        }
    }

    /// The JSON-RPC error code, when the plugin answered with an error.
    public var rpcCode: ErrorCode? {
        switch backing {
        case .rejected: .invokeRejected
        case .rpcError(let e): e.code
        default: nil
        }
    }

    /// The error response, for ``Code/rpcError``.
    public var rpcError: RPCError? {
        if case .rpcError(let e) = backing { e } else { nil }
    }

    /// For ``Code/rejected``: the reason the plugin gave, if it gave a known one.
    public var rejectReason: RejectReason? {
        if case .rejected(let reason, _) = backing { reason } else { nil }
    }

    /// The message of the plugin's error response (``Code/rejected`` and ``Code/rpcError``).
    public var rpcMessage: String? {
        switch backing {
        case .rejected(_, let message): message
        case .rpcError(let e): e.message
        default: nil
        }
    }

    /// For ``Code/pluginExited``: how the plugin ended, nil when it only closed its output.
    public var exitStatus: ExitStatus? {
        if case .pluginExited(let status) = backing { status } else { nil }
    }

    /// The method, for ``Code/timedOut`` and ``Code/invalidResult``.
    public var method: String? {
        switch backing {
        case .timedOut(let method, _), .invalidResult(let method, _): method
        default: nil
        }
    }

    /// For ``Code/timedOut``: the timeout, in seconds.
    public var timeoutSeconds: Double? {
        if case .timedOut(_, let seconds) = backing { seconds } else { nil }
    }

    /// The failure in words (the plugin's message for an RPC error).
    public var description: String {
        switch backing {
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
        case .flooding(let why): "the plugin flooded its output: \(why); stopped"
        }
    }
}
