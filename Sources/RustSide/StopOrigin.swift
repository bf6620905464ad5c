import HostProtocol

/// Who asked for a stop.
public enum StopOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The embedding app.
    case user
    /// The cancel listener of run `generation`: its `waitForCancel` resolved.
    case listenerResolved(generation: UInt64)
    /// The cancel listener of run `generation` timed out.
    case listenerTimedOut(generation: UInt64)

    /// The run the stop was meant for (nil for the user's).
    public var generation: UInt64? {
        switch self {
        case .user: nil
        case .listenerResolved(let g), .listenerTimedOut(let g): g
        }
    }

    /// `user`, `listener of run N (resolved)`, `listener of run N (timed out)`.
    public var description: String {
        switch self {
        case .user: "user"
        case .listenerResolved(let g): "listener of run \(g) (resolved)"
        case .listenerTimedOut(let g): "listener of run \(g) (timed out)"
        }
    }
}
