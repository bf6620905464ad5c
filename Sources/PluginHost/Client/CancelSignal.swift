import HostProtocol

/// How a `waitForCancel` ended.
public enum CancelSignal: Sendable, Hashable, CustomStringConvertible {
    /// Resolved: the task expired or the safety timer fired; the service must stop.
    case resolved
    /// Rejected: completion, stop, the listener's own cancel, supersession, reset or shutdown.
    case rejected(reason: RejectReason?, message: String)

    /// `resolved`, or `rejected (REASON): MESSAGE`.
    public var description: String {
        switch self {
        case .resolved: "resolved"
        case .rejected(let reason?, _): "rejected (\(reason.rawValue))"
        case .rejected(nil, let message): "rejected (\(message))"
        }
    }

    /// The signal a rejection stands for; nil for any other error.
    init?(_ error: HostError) {
        guard error.code == .rejected else { return nil }
        self = .rejected(reason: error.rejectReason, message: error.rpcMessage ?? "")
    }
}
