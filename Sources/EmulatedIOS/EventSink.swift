import HostProtocol

/// Where the emulated OS and the plugin report what happens: events to the host
/// (when the session has them on), counters, and violations.
///
/// Confined to the plugin's serial owner, like everything in this module.
package final class EventSink {
    /// Writes one notification frame; set by the server.
    private let emit: (String, JSONValue) -> Void
    /// Writes a log line to stderr.
    package let log: (String) -> Void

    /// Running totals reported by `plugin/state`.
    package var counters = PluginStateSnapshot.Counters()

    package init(emit: @escaping (String, JSONValue) -> Void, log: @escaping (String) -> Void) {
        self.emit = emit
        self.log = log
    }

    /// Sends an event (dropped by the output when events are off).
    package func send<E: RPCEvent>(_: E.Type, _ params: E.Params) {
        emit(E.name, params.json)
    }

    /// Records a rule violation: counted, logged, and sent as `os/violation`.
    package func violation(rule: String, detail: String) {
        counters.violations += 1
        log("violation of \(rule): \(detail)")
        send(ViolationEvent.self, .init(rule: rule, detail: detail))
    }
}
