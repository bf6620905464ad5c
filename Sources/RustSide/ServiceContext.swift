import HostProtocol
import Synchronization

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
