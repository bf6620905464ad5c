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
