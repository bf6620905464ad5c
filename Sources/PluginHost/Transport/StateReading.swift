import HostProtocol

/// A transport that can give the plugin's `plugin/state` snapshot as a value, without
/// the round trip: the plugin's engine in this process (`InProcessTransport`).
///
/// What the engine writes while it readies the snapshot (the answers and events of
/// jobs its queues held, which a `plugin/state` request would also have let run first)
/// goes to the connection as any output does, before ``readState(asID:)`` returns.
package protocol StateReading: PluginTransport {
    /// The snapshot a `plugin/state` request with this `id` would be answered with now;
    /// nil when only the request can tell (the output has ended or the plugin has shut
    /// down, the clock is real, the transport echoes, a fault replaces the method, `id`
    /// is still pending): the caller then makes the request.
    func readState(asID id: RequestID) -> PluginStateSnapshot?
}
