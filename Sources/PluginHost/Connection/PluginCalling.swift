import Dispatch
import HostProtocol
import Synchronization

/// What calls a plugin: the core ``PluginConnection``, or a connection that wraps one and
/// adds to what a call does (a simulation's, which hands every completion to the
/// simulation and can hold a call back to batch it with another).
///
/// A conforming type gives three things: the core connection underneath, request ids,
/// and ``start(id:method:params:timeout:completion:)``, which registers the call before
/// it is written and writes it in call order (the core's guarantees; a wrapper passes
/// its calls on to the core). Every other call (`async`, blocking, typed, pipelined)
/// is built on those here, so it is the same for all of them.
///
/// ```swift
/// func state(of plugin: any PluginCalling) async throws(HostError) -> PluginStateSnapshot {
///     try await plugin.call(PluginStateMethod.self, EmptyParams())
/// }
/// ```
public protocol PluginCalling: AnyObject, Sendable {
    /// The core connection the calls go through (the connection itself for the core).
    var core: PluginConnection { get }

    /// The id of the next request.
    func nextID() -> RequestID

    /// Registers the call `id`, then writes it; `completion` runs when it is answered,
    /// fails or times out (at once when it cannot be registered or written).
    func start(
        id: RequestID, method: String, params: JSONValue?, timeout: Duration?,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void)
}

extension PluginCalling {
    /// Calls a method with typed params and result.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) async throws(HostError)
        -> M.Result
    {
        let raw = try await call(method: M.name, params: PluginConnection.encode(params), timeout: timeout)
        return try PluginConnection.decode(M.self, raw)
    }

    /// Calls a method by name with raw params.
    public func call(method: String, params: JSONValue?, timeout: Duration? = nil) async throws(HostError) -> JSONValue
    {
        let id = nextID()
        let limit = timeout ?? core.options.defaultTimeout
        let core = self.core
        let result: Result<JSONValue, HostError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONValue, HostError>, Never>) in
                start(id: id, method: method, params: params, timeout: limit) { continuation.resume(returning: $0) }
                // Cancelled before the call was registered: onCancel found nothing to abandon.
                if Task.isCancelled { core.abandon(id, with: .cancelled) }
            }
        } onCancel: {
            core.abandon(id, with: .cancelled)
        }
        return try result.get()
    }

    /// Calls a method and blocks the calling thread until the answer (never call it
    /// from the connection's own callbacks).
    public func callBlocking(method: String, params: JSONValue?, timeout: Duration? = nil) throws(HostError)
        -> JSONValue
    {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<JSONValue, HostError>?>(nil)
        start(id: nextID(), method: method, params: params, timeout: timeout ?? core.options.defaultTimeout) {
            result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Typed blocking call.
    public func callBlocking<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) throws(HostError)
        -> M.Result
    {
        try PluginConnection.decode(
            M.self, try callBlocking(method: M.name, params: PluginConnection.encode(params), timeout: timeout))
    }

    /// Sends a call and returns its id at once; `completion` runs when it is answered
    /// (or at once on failure). The building block of pipelining.
    @discardableResult
    public func start(
        method: String, params: JSONValue?, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void
    ) -> RequestID {
        let id = nextID()
        start(
            id: id, method: method, params: params, timeout: timeout ?? core.options.defaultTimeout,
            completion: completion)
        return id
    }

    /// Sends a notification (no answer).
    public func notify(method: String, params: JSONValue?) throws(HostError) {
        try core.notify(method: method, params: params)
    }

    /// The plugin process, when the core's transport is one.
    public var pluginProcess: PluginProcess? { core.pluginProcess }

    /// How many calls are waiting for an answer.
    public var pendingCount: Int { core.pendingCount }

    /// Methods of the calls waiting for an answer.
    public var pendingMethods: [String] { core.pendingMethods }

    /// The calls waiting for an answer: their ids and methods.
    public var pendingCalls: [(id: RequestID, method: String)] { core.pendingCalls }

    /// Closes the core connection (``PluginConnection/close(grace:)``); returns how the plugin ended.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus { core.close(grace: grace) }
}
