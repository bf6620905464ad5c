import HostProtocol

/// Which Rust side the manager reproduces is a ``Profile``, the plugin's word: `seed` is
/// part A of the reference exactly, defects included; `strict` the host's fixes for the
/// part-D invariants the seed breaks (docs/host.md).
@available(*, deprecated, renamed: "Profile")
public typealias HostBehaviour = Profile

/// The service's lifecycle state.
public enum ServiceState: String, Sendable, CaseIterable {
    /// Never started; in `initialize`; in `run`; stopped or ended (`ServiceState` of manager.rs).
    case idle, initializing, running, stopped
}

/// `GetState`: the state and the last error.
public struct ServiceStatus: Sendable, Hashable {
    /// The lifecycle state.
    public var state: ServiceState
    /// The last run's error (init or run failure), if it failed; cleared by the next start or a stop.
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

    /// `user`, `listener of run N (resolved)`, `listener of run N (timed out)`.
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
    /// The `start` command came; the run it would be.
    case startRequested(generation: UInt64)
    /// The start was refused or failed (already running, `startKeepalive` failed, ...).
    case startFailed(generation: UInt64, error: String)
    /// After a failed `startKeepalive`: token cleared, state idle, the callback back in its slot.
    case rolledBack(generation: UInt64)
    /// The run's state changed.
    case stateChanged(generation: UInt64, ServiceState)
    /// The service's work ended: success or its error; `current` is false when a newer run holds the token.
    case runEnded(generation: UInt64, success: Bool, error: String?, current: Bool)
    /// The run's completion callback was called (it calls `completeBgTask(success)`).
    case completionCallback(generation: UInt64, success: Bool)
    /// Strict: the completion of a run that is no longer current was skipped.
    case completionSkipped(generation: UInt64)
    /// The run's cancel listener was spawned (its `waitForCancel` is or will be written).
    case listenerArmed(generation: UInt64)
    /// Every blocking-pool thread is busy: the listener's `waitForCancel` waits for one.
    case listenerQueued(generation: UInt64, busy: Int)
    /// The run's cancel listener ended: `resolved`, `rejected (REASON)`, `timed out after N s`, ...
    case listenerFinished(generation: UInt64, outcome: String)
    /// A `waitForCancel` whose listener had given up (timed out) was answered: its
    /// thread is free again, and nobody acts on the answer.
    case abandonedWaitAnswered(generation: UInt64, outcome: String)
    /// A `Stop` came, from the app or a cancel listener.
    case stopRequested(StopOrigin)
    /// Strict: a stop meant for an earlier or ended run was not carried out.
    case stopIgnored(StopOrigin, reason: String)
    /// The stop failed (nothing was running).
    case stopFailed(StopOrigin, error: String)
    /// A `stopKeepalive` failed; logged, not returned.
    case stopKeepaliveFailed(error: String)
    /// Strict: a run that ended on its own releases the keepalive (`stopKeepalive`).
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
