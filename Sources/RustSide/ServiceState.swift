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
