import HostProtocol

/// `plugin/state` for a host in the same process, without the request: the snapshot
/// the method's handler would answer with, as a value (no JSON either way).
///
/// A system-level step asks for the state two or three times; as JSON, encoded here
/// and parsed and decoded by the host, those round trips were 57% of a step's
/// instructions under `--os manual` and 70% under `--os ios` (`docs/benchmarks.md`).
extension PluginEngine {
    /// What `plugin/state` would answer now, with what answering it would do first:
    /// like every method outside the port's queues it waits until both emulated queues
    /// are idle, so the jobs they hold run (and write their answers and events) before
    /// the snapshot is taken, as they would before the method's answer.
    ///
    /// Nil, with nothing done, when the answer would not be this value: the engine has
    /// shut down, the clock is real (a request would first move it to the wall clock's
    /// time), a `BSP_FAULT` replaces the method (`garbage-on-state`,
    /// `exit-mid-frame-on-state`), or `id`, the id the request would have, is still
    /// taken by a pending request (the request would be refused with `-32600`). The
    /// engine does not keep `id`: a host that keeps its ids equal to a run with requests
    /// counts it itself.
    ///
    /// ```swift
    /// let engine = try PluginEngine(options: PluginOptions())
    /// let state = engine.stateWithoutRequest(id: .int(1))  // what {"id":1,"method":"plugin/state"} would answer
    /// ```
    public func stateWithoutRequest(id: RequestID) -> PluginStateSnapshot? {
        guard !isShutDown, options.clock == .virtual, !stateMethodReplaced, !refusesID(id) else { return nil }
        dispatcher.drain()
        return world.snapshot()
    }
}
