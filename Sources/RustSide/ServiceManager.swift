import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// The emulated Rust side of tauri-plugin-background-service 0.5.2: the actor of
/// `manager.rs`, the `start` and `stop` commands and the cancel listener of
/// `lib.rs`, over the blocking bridge of `mobile.rs` (`docs/host.md` step by step).
///
/// The actor's commands (`Start`, `Stop`, `SetOnComplete`) run one at a time in
/// arrival order, and a command that blocks on the plugin holds the loop, as the
/// Rust actor's single command loop does. ``start(_:)`` is the Tauri `start`
/// command: `SetOnComplete` (a callback that calls `completeBgTask`), then `Start`,
/// then, once `Start` has replied, the cancel listener. ``stop()`` is `Stop`.
/// Bridge calls block their thread until the plugin answers (``TauriBridge``);
/// the listener's `waitForCancel` holds a ``BlockingPool`` thread. Where the real
/// order depends on thread scheduling, an injected ``RaceArbiter`` decides (see
/// ``Race``); `strict` adds the host's fixes (`docs/host.md`).
///
/// ```swift
/// let manager = ServiceManager(client: client, factory: { SyncService(runSeconds: 5) })
/// try await manager.start(StartKeepaliveConfig())
/// try await manager.stop()
/// ```
public actor ServiceManager {
    /// The completion callback (`OnCompleteCallback`): called once when a run ends,
    /// `true` on success.
    public typealias OnComplete = @Sendable (Bool) async -> Void

    /// Everything but the client and the factory.
    public struct Configuration: Sendable {
        /// `seed` or `strict` (default `seed`).
        public var behaviour: Profile
        /// The host clock for timeouts and services (default: real time).
        public var clock: any HostClock
        /// Where the manager and everything it spawns run (default: a private serial queue).
        public var executor: (any SerialExecutor & TaskExecutor)?
        /// Sees every step the manager takes.
        public var onEvent: @Sendable (ServiceEvent) -> Void
        /// Log lines (failures that are logged, not returned, and the services'
        /// ``ServiceContext/log``). By default each goes to stderr as
        /// `[ServiceManager] LINE`, a prefix that names the library, not a program.
        public var log: @Sendable (String) -> Void
        /// tokio's `max_blocking_threads` (default 512).
        public var blockingThreads: Int
        /// Decides the order at race points (nil: whatever the threads do).
        public var races: (any RaceArbiter)?

        /// Creates a configuration.
        public init(
            behaviour: Profile = .seed, clock: any HostClock = ContinuousHostClock(),
            executor: (any SerialExecutor & TaskExecutor)? = nil,
            onEvent: @escaping @Sendable (ServiceEvent) -> Void = { _ in },
            log: @escaping @Sendable (String) -> Void = {
                FileHandle.standardError.write(Data("[ServiceManager] \($0)\n".utf8))
            },
            blockingThreads: Int = BlockingPool.tokioDefault, races: (any RaceArbiter)? = nil
        ) {
            self.behaviour = behaviour
            self.clock = clock
            self.executor = executor
            self.onEvent = onEvent
            self.log = log
            self.blockingThreads = blockingThreads
            self.races = races
        }
    }

    let client: BackgroundServiceClient
    let factory: @Sendable () -> any BackgroundService
    let configuration: Configuration
    let executor: any SerialExecutor & TaskExecutor
    /// `run_mobile_plugin`: every call of the Rust side goes through it.
    let bridge: TauriBridge
    /// tokio's blocking pool, for the listener's `waitForCancel`.
    public nonisolated let pool: BlockingPool
    /// Runs whose cancel listener is still waiting (for the snapshot).
    let listening = Mutex<[UInt64]>([])
    /// Runs whose queued `waitForCancel` closure has been handed a freed thread and has not
    /// written yet (``Race/handoffVsStop``).
    let handedOff = Mutex<Set<UInt64>>([])
    /// Runs whose `initialize` failed and whose callback has not been called yet
    /// (``Race/listenerVsLateCompletion``).
    let lateInitFailures = Mutex<Set<UInt64>>([])

    // The Rust actor's state (manager.rs `ServiceState`); `is_running` is `token != nil`.
    var token: CancellationToken?
    var generation: UInt64 = 0
    var onComplete: OnComplete?
    var state = ServiceState.idle
    var lastError: String?
    /// The current run's service work: cancelling the token also wakes it, as a
    /// service's `select!` on `shutdown.cancelled()` does.
    var serviceWork: Task<WorkEnd, Never>?
    /// Runs whose token a `Stop` cancelled (their completion races that `Stop`'s
    /// `stopKeepalive`), until they have finished.
    var stoppedRuns: Set<UInt64> = []
    // A FIFO turn for commands: while one blocks on the plugin the next waits, as in
    // the Rust actor's single command loop (Swift actors are reentrant).
    private var commandBusy = false
    private var commandWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a manager for `client`; `factory` makes a fresh service per start.
    public init(
        client: BackgroundServiceClient, factory: @escaping @Sendable () -> any BackgroundService,
        configuration: Configuration = Configuration()
    ) {
        self.client = client
        self.factory = factory
        self.configuration = configuration
        self.executor = configuration.executor ?? QueueExecutor(label: "plugin-host.service-manager")
        self.bridge = TauriBridge(client: client)
        self.pool = BlockingPool(capacity: configuration.blockingThreads)
    }

    /// The actor runs on ``Configuration/executor`` (a private serial queue by default).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    // Departs: IsRunning and GetState are read directly, not queued behind the command in
    // progress (the simulation reads them only when idle, where the answers are the same).

    /// `IsRunning`: whether a run holds the token.
    public var isRunning: Bool { token != nil }

    /// `GetState`, plus the generation and `IsRunning`.
    public var status: ServiceStatus {
        ServiceStatus(state: state, lastError: lastError, generation: generation, isRunning: token != nil)
    }

    /// The Rust side's threads now: blocked bridge calls, queued closures, live listeners.
    public nonisolated var bridgeSnapshot: BridgeSnapshot {
        BridgeSnapshot(
            calls: bridge.calls, queued: pool.queuedRuns, poolCapacity: pool.capacity, poolBusy: pool.busyCount,
            listening: listening.withLock { $0 })
    }

    func emit(_ event: ServiceEvent) { configuration.onEvent(event) }

    func acquireTurn() async {
        if !commandBusy {
            commandBusy = true
            return
        }
        await withCheckedContinuation { commandWaiters.append($0) }
    }

    func releaseTurn() {
        if commandWaiters.isEmpty {
            commandBusy = false
        } else {
            commandWaiters.removeFirst().resume()
        }
    }

    /// `race`'s arbiter and side, for a bridge call (nil when nothing decides).
    func turn(_ race: Race, _ side: Race.Side) -> (Race, Race.Side, any RaceArbiter)? {
        configuration.races.map { (race, side, $0) }
    }
}
