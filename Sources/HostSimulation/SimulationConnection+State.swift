import HostProtocol
import PluginHost

/// `plugin/state` without the round trip, from the plugin's engine in this process.
extension SimulationConnection {
    /// The plugin's state snapshot read from the engine in this process
    /// (`StateReading`), with the request id it would have used taken, so that every
    /// later id is the one a run with the request gives; nil when the request must be
    /// made: the plugin is a process, a call is held to go out with the next request
    /// (it would go out with this one), calls fail (interrupted, or the connection
    /// failed, before the read or from what the engine wrote while readying it), or the
    /// engine cannot say without the request. The caller is the simulation's one
    /// driving thread (the id is looked at, then taken).
    func stateWithoutRequest() -> PluginStateSnapshot? {
        guard let source = stateSource, core.failure == nil else { return nil }
        let id = state.withLock { s in s.held == nil && s.interruption == nil ? s.lastID + 1 : nil }
        guard let id, let snapshot = source.readState(asID: .int(id)), core.failure == nil else { return nil }
        state.withLock { s in
            s.lastID += 1
            s.statesRead += 1
        }
        return snapshot
    }
}
