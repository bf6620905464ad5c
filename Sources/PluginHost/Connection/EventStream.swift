import HostProtocol
import Synchronization

/// The plugin's events as an `AsyncSequence`, in order: ``PluginConnection/notifications``.
///
/// What a reader has not taken yet is held for it, within ``PeerLimits/maxHeldFrames``
/// and ``PeerLimits/maxHeldBytes`` (under the default ``PluginConnection/Options/notificationBuffer``):
/// a plugin that writes events faster than they are read, or to a host that never
/// reads them, is stopped as flooding instead of filling the host's memory.
///
/// ```swift
/// for await event in connection.notifications where event.method == "os/taskLaunched" {
///     print(event.params ?? .null)
/// }
/// ```
public struct EventStream: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = RPCNotification

    struct Held: Sendable {
        let notification: RPCNotification
        let bytes: Int
    }

    /// What the stream holds: counted when yielded, released when taken.
    final class Meter: Sendable {
        let counted = Mutex<OutputMeter?>(nil)

        init(_ limits: PeerLimits?) {
            counted.withLock { $0 = limits.map { OutputMeter(frames: $0.maxHeldFrames, bytes: $0.maxHeldBytes) } }
        }

        /// Counts a frame; the figures when that passes a bound.
        func add(_ bytes: Int) -> String? {
            counted.withLock { $0?.add(bytes: bytes) }
        }

        func taken(_ bytes: Int) {
            counted.withLock { $0?.remove(bytes: bytes) }
        }
    }

    let stream: AsyncStream<Held>
    let meter: Meter

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Held>.AsyncIterator
        let meter: Meter

        /// The next event; nil once the plugin's output has ended.
        public mutating func next() async -> RPCNotification? {
            guard let held = await base.next() else { return nil }
            meter.taken(held.bytes)
            return held.notification
        }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), meter: meter)
    }
}
