import HostProtocol

/// A transport that can give the plugin's `plugin/state` snapshot as a value, without
/// the round trip: the plugin's engine in this process (`InProcessTransport`).
///
/// What the engine writes while it readies the snapshot (the answers and events of
/// jobs its queues held, which a `plugin/state` request would also have let run first)
/// goes to the connection as any output does, before ``readState()`` returns.
package protocol StateReading: PluginTransport {
    /// The snapshot `plugin/state` would answer with now; nil when only a request
    /// can tell (the output has ended, the clock is real, a fault replaces the method):
    /// the caller then makes the request.
    func readState() -> PluginStateSnapshot?
}
