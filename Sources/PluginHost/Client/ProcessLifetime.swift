import HostProtocol
import Synchronization

/// The life of one app process on the host side: under the real app the Rust side
/// dies with the app, so once the emulated OS terminates the app, everything the
/// old Rust side still tries is refused here instead of reaching the plugin.
///
/// A ``BackgroundServiceClient`` with a lifetime refuses every call after
/// ``end()`` with `-32000` reason `terminated`, as the plugin answers the calls the
/// process held when it ended; ``ProcessClock`` wakes the process's sleepers.
///
/// ```swift
/// let lifetime = ProcessLifetime()
/// let client = BackgroundServiceClient(connection: connection, lifetime: lifetime)
/// lifetime.end()
/// try await client.stopKeepalive()   // throws: rejected (terminated), nothing written
/// ```
public final class ProcessLifetime: Sendable {
    private let ended = Mutex(false)

    /// A process that is running.
    public init() {}

    /// The process is gone (idempotent).
    public func end() { ended.withLock { $0 = true } }

    /// Whether the process is gone.
    public var isEnded: Bool { ended.withLock { $0 } }

    /// What a call made by a dead process gets.
    public static let terminated = HostError.rejected(
        reason: .terminated, message: "invoke rejected: terminated (the app process that made it has ended)")

    /// Throws ``terminated`` once the process is gone.
    public func check() throws(HostError) {
        if isEnded { throw ProcessLifetime.terminated }
    }
}
