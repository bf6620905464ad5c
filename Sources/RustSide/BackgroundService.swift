import HostProtocol
import Synchronization

/// The user's background service, as the Rust side runs it: `initialize`, then
/// `run`, watching the cancellation token. A fresh instance is made for each
/// start by the manager's factory.
///
/// ```swift
/// struct Sync: BackgroundService {
///     func initialize(_ context: ServiceContext) async throws {}
///     func run(_ context: ServiceContext) async throws {
///         try await context.sleep(seconds: 10)   // throws once cancelled
///     }
/// }
/// ```
public protocol BackgroundService: Sendable {
    /// Prepares the run; throwing ends the run with an error.
    func initialize(_ context: ServiceContext) async throws
    /// Does the work; should return (or throw) soon after `context.isCancelled`.
    func run(_ context: ServiceContext) async throws
}

/// A cancellation token: cancelled once, observed cooperatively.
public final class CancellationToken: Sendable {
    private let cancelled = Mutex(false)

    /// A token that is not cancelled.
    public init() {}

    /// Cancels it (idempotent).
    public func cancel() { cancelled.withLock { $0 = true } }

    /// Whether it has been cancelled.
    public var isCancelled: Bool { cancelled.withLock { $0 } }
}

/// What a service sees of its run.
public struct ServiceContext: Sendable {
    /// Which start this run belongs to (1 for the first).
    public let generation: UInt64
    /// The host's clock (virtual under simulation).
    public let clock: any HostClock
    /// Cancelled by `stop`.
    public let token: CancellationToken
    /// Where the service's log lines go.
    public let log: @Sendable (String) -> Void

    /// Whether the run has been asked to stop.
    public var isCancelled: Bool { token.isCancelled || Task.isCancelled }

    /// Throws `CancellationError` when the run has been asked to stop.
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Waits on the host's clock; throws `CancellationError` when stopped meanwhile.
    public func sleep(seconds: Double) async throws {
        try checkCancellation()
        try await clock.sleep(seconds: seconds)
        try checkCancellation()
    }
}
