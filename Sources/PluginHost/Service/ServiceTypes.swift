import HostProtocol

/// Which Rust side the manager reproduces.
public enum HostBehaviour: String, Sendable, CaseIterable {
    /// Part A of the reference exactly, defects included.
    case seed
    /// The host's fixes for the part-D invariants the seed breaks (docs/host.md).
    case strict
}

/// The service's lifecycle state.
public enum ServiceState: String, Sendable, CaseIterable {
    case idle, initializing, running, stopped
}

/// `GetState`: the state and the last error.
public struct ServiceStatus: Sendable, Hashable {
    public var state: ServiceState
    public var lastError: String?
    /// How many starts have been attempted.
    public var generation: UInt64
    /// Whether a run is in progress (a token is held).
    public var isRunning: Bool
}

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

    public var description: String {
        switch self {
        case .user: "user"
        case .listenerResolved(let g): "listener of run \(g) (resolved)"
        case .listenerTimedOut(let g): "listener of run \(g) (timed out)"
        }
    }
}

/// What the manager does, for timelines, tests and the system fuzzer.
public enum ServiceEvent: Sendable, Hashable {
    case startRequested(generation: UInt64)
    case startFailed(generation: UInt64, error: String)
    case rolledBack(generation: UInt64)
    case stateChanged(generation: UInt64, ServiceState)
    case runEnded(generation: UInt64, success: Bool, error: String?, current: Bool)
    case completionCallback(generation: UInt64, success: Bool)
    case completionSkipped(generation: UInt64)
    case listenerArmed(generation: UInt64)
    case listenerFinished(generation: UInt64, outcome: String)
    case stopRequested(StopOrigin)
    case stopIgnored(StopOrigin, reason: String)
    case stopFailed(StopOrigin, error: String)
    case stopKeepaliveFailed(error: String)
    case keepaliveReleased(generation: UInt64)
    /// Everything the end of a run causes is done (callback, keepalive release).
    case runFinished(generation: UInt64)
}
