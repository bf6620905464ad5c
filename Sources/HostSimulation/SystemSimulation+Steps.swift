import Foundation
import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// Driving the system: host tasks, requests from the harness and the OS, running until idle.
extension SystemSimulation {
    /// Runs `action` as a host task (on the simulation's executor) until the system is
    /// idle; a run's end that waited for the app's command goes on once `action` returns.
    public func host(_ action: @escaping @Sendable (ServiceManager) async -> Void) throws(SimulationError) {
        let (manager, races) = (self.manager, self.races)
        Task(executorPreference: executor) {
            await action(manager)
            races.appCommandDone()
        }
        try runUntilIdle()
    }

    /// Runs `body` as a host task and returns its result once the system is idle.
    public func hostValue<T: Sendable>(_ body: @escaping @Sendable (ServiceManager) async -> T) throws(SimulationError)
        -> T
    {
        let box = Mutex<T?>(nil)
        let manager = self.manager
        Task(executorPreference: executor) {
            let value = await body(manager)
            box.withLock { $0 = value }
        }
        try runUntilIdle()
        guard let value = box.withLock({ $0 }) else { throw .hostTaskStuck }
        return value
    }

    /// A request made by the harness or the OS, answered before returning; the
    /// host then runs until idle.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params, origin: Origin = .os) throws(SimulationError)
        -> M.Result
    {
        let raw = try callRaw(method: M.name, params: PluginConnection.encode(params), origin: origin)
        do {
            return try PluginConnection.decode(M.self, raw)
        } catch {
            throw .host(error)
        }
    }

    /// An `os/` control; `-32002`-style refusals come back as `.failure`.
    @discardableResult
    public func os<M: RPCMethod>(_ method: M.Type, _ params: M.Params) throws(SimulationError) -> Result<
        M.Result, HostError
    > {
        switch try os(method: M.name, params: PluginConnection.encode(params)) {
        case .failure(let e): return .failure(e)
        case .success(let raw):
            do {
                return .success(try PluginConnection.decode(M.self, raw))
            } catch {
                throw .host(error)
            }
        }
    }

    /// An `os/` control by name with raw params (members a typed method lacks, such as
    /// `--os ios`'s conditions); refusals come back as `.failure`.
    @discardableResult
    public func os(method: String, params: JSONValue?) throws(SimulationError) -> Result<JSONValue, HostError> {
        do {
            return .success(try callRaw(method: method, params: params, origin: .os))
        } catch {
            if let e = error.hostError, e.rpcCode != nil { return .failure(e) }
            throw error
        }
    }

    /// A raw request (any method, any params).
    public func callRaw(method: String, params: JSONValue?, origin: Origin) throws(SimulationError) -> JSONValue {
        try callRaw(method: method, params: params, origin: origin, settle: true)
    }

    /// A raw request; with `settle` false the host does not run after the answer (the caller runs it).
    func callRaw(method: String, params: JSONValue?, origin: Origin, settle: Bool) throws(SimulationError)
        -> JSONValue
    {
        shared.withLock { $0.origin = origin }
        let outcome = Result { () throws(HostError) in
            try baseClient.connection.callBlocking(method: method, params: params, timeout: options.answerTimeout)
        }
        shared.withLock { $0.origin = .rust }
        let result: JSONValue
        do {
            result = try outcome.get()
        } catch {
            try runUntilIdle()
            throw .host(error)
        }
        if method == OSAdvanceTime.name, let now = try? OSAdvanceTime.Result(json: result).now { pluginNow = now }
        if settle { try runUntilIdle() }
        return result
    }

    /// The plugin's state snapshot (not shown in timelines).
    ///
    /// The request is made (each trace's request ids count it), unless
    /// ``Options/stateWithoutRequests`` is set and the plugin is the engine in this
    /// process: then the engine gives the snapshot as a value, the request's id is
    /// taken all the same, and the host runs as it would after the answer. An answer
    /// equal to the last one is not decoded again (decoding is most of the round trip's
    /// cost, `docs/benchmarks.md`).
    public func pluginState() throws(SimulationError) -> PluginStateSnapshot {
        if options.stateWithoutRequests, let state = plugin.connection.stateWithoutRequest() {
            try runUntilIdle()
            return state
        }
        let raw = try callRaw(
            method: PluginStateMethod.name, params: PluginConnection.encode(EmptyParams()), origin: .harness)
        if let last = lastPluginState, last.raw == raw { return last.state }
        let state: PluginStateSnapshot
        do {
            state = try PluginConnection.decode(PluginStateMethod.self, raw)
        } catch {
            throw .host(error)
        }
        lastPluginState = (raw, state)
        return state
    }

    /// Runs host jobs until none is runnable, no request is unanswered and no side
    /// of a race waits at its gate.
    ///
    /// Between two jobs it waits until every answer to what the last job wrote has
    /// arrived, then runs those completions in arrival order (each resumes its task,
    /// which queues its next job): the order of jobs depends on nothing but the
    /// order of messages. When nothing else can run, a run's end that waits for the
    /// app's command is decided, then a side of a race that waits for a partner who is
    /// not coming goes (oldest first).
    public func runUntilIdle() throws(SimulationError) {
        while true {
            try waitUntilAnswered()
            let ready: [@Sendable () -> Void] = shared.withLock { s in
                defer { s.deliveries.removeAll() }
                return s.deliveries
            }
            for completion in ready { completion() }
            if ready.isEmpty, !executor.runNext(), !races.decideForApp(), !races.releaseOne() { return }
        }
    }

    private func waitUntilAnswered() throws(SimulationError) {
        let deadline = Date().addingTimeInterval(Double(options.answerTimeout.components.seconds) + 1)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let outstanding = shared.withLock { Array($0.inFlight.values) }
            if outstanding.isEmpty { return }
            if !condition.wait(until: deadline) { throw .hung(outstanding.sorted()) }
        }
    }

    /// A call's answer arrived: calls made by the driver itself (it is blocked waiting)
    /// complete at once; host calls wait for the driver.
    func arrived(_ id: RequestID, _ completion: @escaping @Sendable () -> Void) {
        // A call that failed before it was written has no recorded origin: it belongs
        // to whoever is calling now.
        let origin = shared.withLock { $0.origins.removeValue(forKey: id) ?? $0.origin }
        if origin == .os || origin == .harness {
            completion()
            return
        }
        condition.lock()
        shared.withLock { s in
            s.inFlight.removeValue(forKey: id)
            s.deliveries.append(completion)
        }
        condition.broadcast()
        condition.unlock()
    }
}
