import Foundation
import HostProtocol

/// The emulated Rust-side service manager (reference part A).
///
/// An actor owns all service state, and its commands (`start`, `stop`) run one
/// at a time in arrival order, as the Rust actor's single command loop does: a
/// command that awaits the plugin holds the loop. `start` fails with
/// "already running" while a run holds the token; otherwise it makes a token,
/// bumps the generation, sets the completion callback, calls `startKeepalive`
/// (rolling back on failure), spawns a fresh service from the factory, and arms
/// the cancel listener. `stop` cancels the token and calls `stopKeepalive`
/// (whose failure is logged, not returned). See `docs/host.md` for what the
/// `strict` behaviour changes.
///
/// ```swift
/// let manager = ServiceManager(client: client, factory: { SyncService(seconds: 5) })
/// try await manager.start(StartKeepaliveConfig())
/// try await manager.stop()
/// ```
public actor ServiceManager {
    /// Everything but the client and the factory.
    public struct Configuration: Sendable {
        /// `seed` or `strict` (default `seed`).
        public var behaviour: HostBehaviour
        /// The host clock for timeouts and services (default: real time).
        public var clock: any HostClock
        /// Where the manager and everything it spawns run (default: a private serial queue).
        public var executor: (any SerialExecutor & TaskExecutor)?
        /// Sees every step the manager takes.
        public var onEvent: @Sendable (ServiceEvent) -> Void
        /// Log lines (failures that are logged, not returned).
        public var log: @Sendable (String) -> Void

        /// Creates a configuration.
        public init(behaviour: HostBehaviour = .seed, clock: any HostClock = ContinuousHostClock(), executor: (any SerialExecutor & TaskExecutor)? = nil, onEvent: @escaping @Sendable (ServiceEvent) -> Void = { _ in }, log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("plugin-host: \($0)\n".utf8)) }) {
            self.behaviour = behaviour
            self.clock = clock
            self.executor = executor
            self.onEvent = onEvent
            self.log = log
        }
    }

    let client: BackgroundServiceClient
    let factory: @Sendable () -> any BackgroundService
    let configuration: Configuration
    let executor: any SerialExecutor & TaskExecutor

    // The Rust actor's state.
    var token: CancellationToken?
    var generation: UInt64 = 0
    var onComplete: (@Sendable (Bool) async -> Void)?
    var state = ServiceState.idle
    var lastError: String?
    var runTask: Task<Void, Never>?
    /// The current run's service work (what `stop` cancels).
    var serviceWork: Task<String?, Never>?
    // A FIFO turn for commands: while one awaits the plugin the next waits, as in
    // the Rust actor's single command loop (Swift actors are reentrant).
    private var commandBusy = false
    private var commandWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a manager for `client`; `factory` makes a fresh service per start.
    public init(client: BackgroundServiceClient, factory: @escaping @Sendable () -> any BackgroundService, configuration: Configuration = Configuration()) {
        self.client = client
        self.factory = factory
        self.configuration = configuration
        self.executor = configuration.executor ?? QueueExecutor(label: "plugin-host.service-manager")
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// `IsRunning`: whether a run holds the token.
    public var isRunning: Bool { token != nil }

    /// `GetState`.
    public var status: ServiceStatus {
        ServiceStatus(state: state, lastError: lastError, generation: generation, isRunning: token != nil)
    }

    /// `SetOnComplete`: replaces the completion callback (start sets its own first).
    public func setOnComplete(_ callback: @escaping @Sendable (Bool) async -> Void) {
        onComplete = callback
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

    // MARK: - Start

    /// `Start`: see the type's documentation. Throws ``ServiceError/alreadyRunning``
    /// or ``ServiceError/keepaliveFailed(_:)`` (after rolling back).
    public func start(_ config: StartKeepaliveConfig) async throws(ServiceError) {
        let g = try await startCommand(config)
        // The Rust side arms the listener after the start command has returned.
        if configuration.behaviour == .seed {
            spawnListener(generation: g, timeout: config.iosCancelListenerTimeoutSecs, armed: nil)
        }
    }

    private func startCommand(_ config: StartKeepaliveConfig) async throws(ServiceError) -> UInt64 {
        await acquireTurn()
        defer { releaseTurn() }
        guard token == nil else {
            emit(.startFailed(generation: generation, error: ServiceError.alreadyRunning.description))
            throw ServiceError.alreadyRunning
        }
        let newToken = CancellationToken()
        token = newToken
        generation += 1
        let g = generation
        emit(.startRequested(generation: g))
        let previousCallback = onComplete
        let client = self.client
        let log = configuration.log
        onComplete = { success in
            do {
                try await client.completeBgTask(success: success)
            } catch {
                log("completeBgTask(\(success)) failed: \(error)")
            }
        }
        do {
            try await client.startKeepalive(config)
        } catch {
            // Roll back: clear the token, restore the callback, return the error.
            token = nil
            onComplete = previousCallback
            lastError = error.description
            emit(.startFailed(generation: g, error: error.description))
            emit(.rolledBack(generation: g))
            throw ServiceError.keepaliveFailed(error)
        }
        var armed: ArmedWait?
        if configuration.behaviour == .strict {
            // Strict: the waitForCancel is written before the service can run, so a
            // run that ends at once cannot complete before the listener is pending.
            armed = ArmedWait(client: client)
        }
        let service = factory()
        runTask = Task(executorPreference: executor) { [self] in
            await runService(service, generation: g, token: newToken)
        }
        if let armed {
            spawnListener(generation: g, timeout: config.iosCancelListenerTimeoutSecs, armed: armed)
        }
        return g
    }

    // MARK: - Stop

    /// `Stop`: cancels the token and calls `stopKeepalive`. Throws ``ServiceError/notRunning``.
    public func stop() async throws(ServiceError) {
        try await stop(origin: .user)
    }

    func stop(origin: StopOrigin) async throws(ServiceError) {
        await acquireTurn()
        defer { releaseTurn() }
        emit(.stopRequested(origin))
        if configuration.behaviour == .strict, let g = origin.generation, g != generation || token == nil {
            // Strict: a stop meant for an earlier run never stops a newer one.
            emit(.stopIgnored(origin, reason: g != generation ? "run \(g) is not the current run \(generation)" : "run \(g) has already ended"))
            return
        }
        guard let current = token else {
            emit(.stopFailed(origin, error: ServiceError.notRunning.description))
            throw ServiceError.notRunning
        }
        token = nil
        current.cancel()
        serviceWork?.cancel()
        do {
            try await client.stopKeepalive()
        } catch {
            configuration.log("stopKeepalive failed: \(error)")
            emit(.stopKeepaliveFailed(error: error.description))
        }
    }
}
