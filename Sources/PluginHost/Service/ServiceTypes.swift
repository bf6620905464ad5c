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
// Departs: the app events (`background-service://event`) are these events, not Tauri events.
public enum ServiceEvent: Sendable, Hashable {
    case startRequested(generation: UInt64)
    case startFailed(generation: UInt64, error: String)
    case rolledBack(generation: UInt64)
    case stateChanged(generation: UInt64, ServiceState)
    case runEnded(generation: UInt64, success: Bool, error: String?, current: Bool)
    case completionCallback(generation: UInt64, success: Bool)
    case completionSkipped(generation: UInt64)
    case listenerArmed(generation: UInt64)
    /// Every blocking-pool thread is busy: the listener's `waitForCancel` waits for one.
    case listenerQueued(generation: UInt64, busy: Int)
    case listenerFinished(generation: UInt64, outcome: String)
    /// A `waitForCancel` whose listener had given up (timed out) was answered: its
    /// thread is free again, and nobody acts on the answer.
    case abandonedWaitAnswered(generation: UInt64, outcome: String)
    case stopRequested(StopOrigin)
    case stopIgnored(StopOrigin, reason: String)
    case stopFailed(StopOrigin, error: String)
    case stopKeepaliveFailed(error: String)
    case keepaliveReleased(generation: UInt64)
    /// Everything the end of a run causes is done (callback, keepalive release).
    case runFinished(generation: UInt64)
}

/// The Rust side's threads as they stand: blocking bridge calls waiting for their
/// answer, closures queued for a blocking-pool thread, and the cancel listeners
/// still within their timeout. What the system invariants are checked against.
public struct BridgeSnapshot: Sendable, Hashable {
    /// Blocking calls whose answer has not come, oldest first.
    public var calls: [TauriBridge.Call]
    /// Runs whose `waitForCancel` waits for a blocking-pool thread, oldest first.
    public var queued: [UInt64]
    /// The blocking pool's size.
    public var poolCapacity: Int
    /// Blocking-pool threads in use.
    public var poolBusy: Int
    /// Runs whose cancel listener still waits for its `waitForCancel` (not timed out, not answered).
    public var listening: [UInt64]
}
