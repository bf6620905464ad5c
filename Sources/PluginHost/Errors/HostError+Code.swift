extension HostError {
    /// The kinds of ``HostError``.
    public typealias Code = FailureCode<HostError>
}

extension FailureCode where Failure == HostError {
    /// The plugin could not be started.
    public static var launchFailed: Self { Self("launchFailed") }
    /// The plugin's output ended.
    public static var pluginExited: Self { Self("pluginExited") }
    /// A call got no answer within its timeout.
    public static var timedOut: Self { Self("timedOut") }
    /// The plugin rejected the invoke (-32000).
    public static var rejected: Self { Self("rejected") }
    /// Any other JSON-RPC error response.
    public static var rpcError: Self { Self("rpcError") }
    /// The plugin's output broke the protocol.
    public static var protocolError: Self { Self("protocolError") }
    /// A result did not have the method's result shape.
    public static var invalidResult: Self { Self("invalidResult") }
    /// The calling task was cancelled.
    public static var cancelled: Self { Self("cancelled") }
    /// The host closed the connection.
    public static var closed: Self { Self("closed") }
    /// Reading or writing failed while the plugin ran.
    public static var ioFailure: Self { Self("ioFailure") }
    /// The plugin wrote more than the host holds (``PeerLimits``) and was stopped.
    public static var flooding: Self { Self("flooding") }
}
