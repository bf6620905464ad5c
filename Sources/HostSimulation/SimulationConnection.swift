import HostProtocol
import PluginHost
import Synchronization

/// The connection a simulation calls the plugin through: it wraps the core
/// ``PluginConnection`` and adds what the simulation needs, the core keeping its
/// guarantees (a call registered before it is written, one writer in call order, the
/// peer bounds and timeouts):
///
/// - every completion is handed to the simulation with its call's id
///   (`completionHandoff`), to be run between host jobs, so that a reply never resumes a
///   task before that task has suspended;
/// - a call can be held back to go out with another as one batch (``hold(method:params:meeting:completion:)``,
///   `SimulationConnection+Holding.swift`);
/// - calls can be interrupted between two simulations (``interruptCalls(with:)``,
///   ``resumeCalls()``), and request ids start from 1 again (``restartIDs()``).
///
/// ```swift
/// let connection = SimulationConnection(wrapping: try PluginConnection(launcher: launcher))
/// let client = BackgroundServiceClient(connection: connection)
/// ```
public final class SimulationConnection: PluginCalling {
    /// Runs a call's completion: at once, or when whoever drives the host says.
    public typealias Handoff = @Sendable (RequestID, @escaping @Sendable () -> Void) -> Void

    struct State {
        /// The last request id given.
        var lastID = 0
        /// Set by ``interruptCalls(with:)``: new calls fail with it until ``resumeCalls()``.
        var interruption: HostError?
        /// A call waiting to go out in one batch with another.
        var held: HeldCall?
        /// How many times the plugin's state was read without a request (``stateWithoutRequest()``).
        var statesRead = 0
    }

    /// The connection wrapped.
    public let core: PluginConnection
    private let handoff: Handoff?
    let state = Mutex(State())
    /// The core's transport, when it can give the plugin's state without a request.
    let stateSource: (any StateReading)?

    /// Wraps `core`; its completions go to `completionHandoff` with their call's id (nil:
    /// they run where the core runs them: on its reader thread, or for the engine in this
    /// process on the thread that hands its output over).
    public init(wrapping core: PluginConnection, completionHandoff: Handoff? = nil) {
        self.core = core
        handoff = completionHandoff
        stateSource = core.transport as? any StateReading
    }

    /// The id after the last one given (ids are this connection's own: every call goes
    /// through it).
    public func nextID() -> RequestID {
        .int(
            state.withLock { s in
                s.lastID += 1
                return s.lastID
            })
    }

    /// Registers and writes the call through the core; a held call that this request
    /// meets goes out ahead of it, as one batch.
    public func start(
        id: RequestID, method: String, params: JSONValue?, timeout: Duration?,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) {
        let completion = handedOff(id, completion)
        if let refused = refusal() {
            completion(.failure(refused))
            return
        }
        core.start(
            id: id, method: method, params: params, timeout: timeout,
            joining: { [self] method in takeHeld(metBy: method) }, completion: completion)
    }

    /// The held call, taken, when a request of `method` is the one it meets (asked by the
    /// core under its writer lock).
    func takeHeld(metBy method: String) -> EncodedRequest? {
        state.withLock { s in
            guard let held = s.held, held.isMet(by: method) else { return nil }
            s.held = nil
            return held.call
        }
    }

    /// Fails every waiting call with `error` (their late answers are not errors) and
    /// every new one, until ``resumeCalls()`` (a simulation handing the plugin to the next).
    public func interruptCalls(with error: HostError) {
        state.withLock { $0.interruption = error }
        core.abandonAll(with: error)
    }

    /// Lets calls through again after ``interruptCalls(with:)``.
    public func resumeCalls() { state.withLock { $0.interruption = nil } }

    /// Starts request ids from 1 again. Only once every id used so far has been
    /// answered or given up on (after a `plugin/reset` has been answered).
    public func restartIDs() {
        state.withLock { $0.lastID = 0 }
        core.forgetAbandonedIDs()
    }

    /// `completion`, handed off when there is a handoff.
    func handedOff(
        _ id: RequestID, _ completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> @Sendable (Result<JSONValue, HostError>) -> Void {
        guard let handoff else { return completion }
        return { result in handoff(id) { completion(result) } }
    }

    /// Why a new call fails at once, if it does: the core's failure first, then an interruption.
    func refusal() -> HostError? {
        guard let interruption = state.withLock({ $0.interruption }) else { return nil }
        return core.failure ?? interruption
    }
}
