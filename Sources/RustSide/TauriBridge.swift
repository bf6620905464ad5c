import HostProtocol
import PluginHost
import Synchronization

/// Tauri v2's `run_mobile_plugin` as the Rust side uses it: a blocking call. The
/// calling thread writes the invoke and then waits, with no timeout, until the
/// plugin resolves or rejects it; an invoke that is never answered blocks its
/// thread for the life of the process.
///
/// Which thread blocks is the caller's business: `waitForCancel` runs on a
/// ``BlockingPool`` thread (`spawn_blocking`); every other call of the Rust side
/// (`startKeepalive` and `stopKeepalive` inside the actor's loop, the completion
/// callback's `completeBgTask`, the listener's `cancelCancelListener`) blocks the
/// async worker thread it is made on. Every call in progress is listed in
/// ``calls`` with the thread it holds.
///
/// ```swift
/// let bridge = TauriBridge(client: client)
/// let result = await bridge.call(StopKeepalive.name, params: nil, run: 1)
/// ```
public final class TauriBridge: Sendable {
    /// A blocking call waiting for its answer.
    public struct Call: Sendable, Hashable {
        /// The invoke's request id.
        public let request: RequestID
        /// The command.
        public let method: String
        /// The run (generation) the call belongs to.
        public let run: UInt64
        /// The blocking-pool thread it holds; nil for a call blocking an async worker.
        public let poolThread: Int?
    }

    let connection: any PluginCalling
    /// The app process whose Rust side this is: once it has ended, every call is refused
    /// with `terminated` and nothing is written.
    let lifetime: ProcessLifetime?
    private let inProgress = Mutex<[Call]>([])
    /// The commands whose next invoke a caller on the main thread makes (`x-mainThreadCaller`,
    /// `TauriBridge+MainThread.swift`).
    let fromMainThread = Mutex<Set<String>>([])

    /// A bridge over `client`'s connection, for its app process.
    public init(client: BackgroundServiceClient) {
        connection = client.connection
        lifetime = client.lifetime
    }

    /// Every call whose answer has not come yet, oldest first.
    public var calls: [Call] { inProgress.withLock { $0 } }

    /// An invoke written, and the answer its thread waits for.
    public struct Pending: Sendable {
        /// The invoke's request id (nil: refused before it was written).
        public let request: RequestID?
        /// Filled when the plugin answers (or the connection fails).
        public let answer: OneShot<Result<JSONValue, HostError>>
    }

    /// Writes the invoke now (before returning) and gives what its thread waits for.
    public func send(_ method: String, params: JSONValue?, run: UInt64, poolThread: Int? = nil) -> Pending {
        let answer = OneShot<Result<JSONValue, HostError>>()
        if let lifetime, lifetime.isEnded {
            answer.fill(.failure(ProcessLifetime.terminated))
            return Pending(request: nil, answer: answer)
        }
        let pending = Mutex<RequestID?>(nil)
        let params = markedFromMainThread(method, params)
        let id = connection.start(method: method, params: params, timeout: nil) { [self] result in
            // Runs at once when the write itself failed: the id is not known yet then.
            if let id = pending.withLock({ $0 }) { inProgress.withLock { $0.removeAll { $0.request == id } } }
            answer.fill(result)
        }
        if answer.current == nil {
            pending.withLock { $0 = id }
            inProgress.withLock { $0.append(Call(request: id, method: method, run: run, poolThread: poolThread)) }
            // Answered between the write and the registration (a real reader thread is fast).
            if answer.current != nil { inProgress.withLock { $0.removeAll { $0.request == id } } }
        }
        return Pending(request: id, answer: answer)
    }

    /// A blocking call on an async worker: waits for its turn at `race` (when given),
    /// writes the invoke, then blocks until the plugin answers.
    // Departs: the async worker pool's size is not modelled (the plugin answers these at once).
    public func call(
        _ method: String, params: JSONValue?, run: UInt64,
        race: (Race, Race.Side, any RaceArbiter)? = nil
    ) async -> Result<JSONValue, HostError> {
        if let (point, side, arbiter) = race { await arbiter.arrive(point, side, run: run) }
        let pending = send(method, params: params, run: run)
        if let (point, side, arbiter) = race { arbiter.passed(point, side, run: run) }
        return await pending.answer.value()
    }
}
