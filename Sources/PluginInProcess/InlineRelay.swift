import PluginHost
import Synchronization

/// Hands the engine's output to a connection on a thread that pumps (a writer, the real
/// clock's timer, a closer: `InlineOutput`): one thread at a time, in order, and nothing
/// left behind.
///
/// A thread that pumps while another hands output over returns at once; the one
/// handing over looks again, with the claim held, before it lets go, so output
/// added meanwhile is handed over by it.
final class InlineRelay: Sendable {
    private struct State {
        var consumer: (@Sendable (InlineOutputChunk) -> Void)?
        var handing = false
    }

    private let state = Mutex(State())

    /// Installs the consumer (the last one installed wins).
    func install(_ consumer: @escaping @Sendable (InlineOutputChunk) -> Void) {
        state.withLock { $0.consumer = consumer }
    }

    /// Hands what `output` holds to the consumer, unless there is none or it is being handed over.
    func pump(_ output: Outbox) {
        let consumer = state.withLock { s -> (@Sendable (InlineOutputChunk) -> Void)? in
            guard let consumer = s.consumer, !s.handing else { return nil }
            s.handing = true
            return consumer
        }
        guard let consumer else { return }
        while true {
            let (bytes, end) = output.takeAvailable()
            if bytes.isEmpty, end == nil {
                let finished = state.withLock { s -> Bool in
                    guard !output.hasUntaken else { return false }
                    s.handing = false
                    return true
                }
                if finished { return }
                continue
            }
            if !bytes.isEmpty { consumer(.bytes(bytes)) }
            if let end { consumer(.end(end)) }
        }
    }
}
