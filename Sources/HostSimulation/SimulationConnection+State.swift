import HostProtocol
import PluginHost

/// `plugin/state` without the round trip, from the plugin's engine in this process.
extension SimulationConnection {
    /// The plugin's state snapshot read from the engine in this process
    /// (`StateReading`), with the request id it would have used taken, so that every
    /// later id is the one a run with the request gives; nil when the request must be
    /// made: the plugin is a process, a call is held to go out with the next request
    /// (it would go out with this one), calls fail (interrupted, or the connection
    /// failed), or the engine cannot say without the request.
    func stateWithoutRequest() -> PluginStateSnapshot? {
        guard let source = stateSource, core.failure == nil,
            state.withLock({ $0.held == nil && $0.interruption == nil }),
            let snapshot = source.readState()
        else { return nil }
        _ = nextID()
        return snapshot
    }
}
