import HostProtocol

/// Everything that crosses a connection, in order, for timelines and traces.
public enum ConnectionEvent: Sendable {
    /// A request written to the plugin.
    case sentRequest(Request)
    /// A notification written to the plugin.
    case sentNotification(RPCNotification)
    /// A response read from the plugin (matched or not).
    case receivedResponse(Response)
    /// A notification (event) read from the plugin.
    case receivedNotification(RPCNotification)
    /// A batch reply or anything else read from the plugin.
    case receivedOther(JSONValue)
    /// A line the plugin wrote to stderr.
    case stderr(String)
    /// Something the plugin wrote that breaks the protocol.
    case protocolError(String)
    /// A call's completion has run (answered, failed, timed out or cancelled).
    case settled(RequestID)
    /// The plugin's output ended.
    case closed(ExitStatus?)
}
