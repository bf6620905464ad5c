extension HostError {
    /// The kinds of ``HostError``: compared with `==`, and open to new kinds
    /// without breaking a client's code (there is no exhaustive `switch` to break).
    ///
    /// ```swift
    /// catch let e where e.code == .pluginExited { ... }
    /// ```
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case launchFailed, pluginExited, timedOut, rejected, rpcError
            case protocolError, invalidResult, cancelled, closed, ioFailure
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The plugin could not be started.
        public static let launchFailed = Code(.launchFailed)
        /// The plugin's output ended.
        public static let pluginExited = Code(.pluginExited)
        /// A call got no answer within its timeout.
        public static let timedOut = Code(.timedOut)
        /// The plugin rejected the invoke (-32000).
        public static let rejected = Code(.rejected)
        /// Any other JSON-RPC error response.
        public static let rpcError = Code(.rpcError)
        /// The plugin's output broke the protocol.
        public static let protocolError = Code(.protocolError)
        /// A result did not have the method's result shape.
        public static let invalidResult = Code(.invalidResult)
        /// The calling task was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The host closed the connection.
        public static let closed = Code(.closed)
        /// Reading or writing failed while the plugin ran.
        public static let ioFailure = Code(.ioFailure)

        public var description: String {
            switch value {
            case .launchFailed: "launchFailed"
            case .pluginExited: "pluginExited"
            case .timedOut: "timedOut"
            case .rejected: "rejected"
            case .rpcError: "rpcError"
            case .protocolError: "protocolError"
            case .invalidResult: "invalidResult"
            case .cancelled: "cancelled"
            case .closed: "closed"
            case .ioFailure: "ioFailure"
            }
        }
    }
}
