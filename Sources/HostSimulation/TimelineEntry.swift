import HostProtocol
import RustSide

/// Who made a request.
public enum Origin: String, Sendable, Hashable {
    /// The emulated Rust side (service manager, listener, service).
    case rust
    /// The host playing the operating system (`os/` controls).
    case os
    /// Session and inspection calls made by the harness itself (`initialize`, probes).
    case harness
}

/// One line of a run's history, on the shared virtual timeline.
public struct TimelineEntry: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// A request written to the plugin.
        case request(Request, Origin)
        /// A response read from the plugin.
        case response(Response, Origin)
        /// An event read from the plugin.
        case event(RPCNotification)
        /// A step of the service manager.
        case service(ServiceEvent)
        /// A line of the scenario's narration.
        case note(String)
        /// A line the plugin wrote to stderr.
        case stderr(String)
        /// Something the plugin wrote that breaks the protocol, in the connection's words
        /// (``ConnectionEvent/protocolError(_:)``): a frame that is not JSON-RPC, an answer
        /// nobody waits for, more output than the host holds.
        case protocolError(String)
    }

    /// Virtual time when it happened.
    public let time: VirtualTime
    /// What happened.
    public let kind: Kind

    /// Whether a timeline meant for people shows it (harness probes are hidden).
    public var isVisible: Bool {
        switch kind {
        case .request(_, .harness), .response(_, .harness): false
        default: true
        }
    }
}
