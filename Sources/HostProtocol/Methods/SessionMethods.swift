/// `initialize`: opens the session; `capabilities.events: true` turns events on.
public enum Initialize: RPCMethod {
    public static let name = "initialize"
    public static let kind = MethodKind.session

    /// `{capabilities: {events}}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// `capabilities`: what the host can take.
        public struct Capabilities: Codable, Hashable, Sendable {
            /// Whether the host wants event notifications.
            public var events: Bool?
        }

        /// What the host can take (absent: nothing).
        public var capabilities: Capabilities?

        /// Whether the host wants event notifications.
        public var events: Bool? {
            get { capabilities?.events }
            set { capabilities = Capabilities(events: newValue) }
        }

        /// Creates params (`capabilities` is always written, `{}` when `events` is nil).
        public init(events: Bool? = nil) { capabilities = Capabilities(events: events) }
    }

    /// What the plugin says about itself.
    public struct Result: JSONCodable, Codable, Hashable {
        /// `serverInfo`.
        public struct ServerInfo: Codable, Hashable, Sendable {
            /// The server's name.
            public var name: String
            /// The server's version.
            public var version: String
        }

        /// `taskIdentifiers`.
        public struct TaskIdentifiers: Codable, Hashable, Sendable {
            /// `<bundle-id>.bg-refresh`.
            public var refresh: String
            /// `<bundle-id>.bg-processing`.
            public var processing: String
        }

        /// Always `"1"` for this contract.
        public var protocolVersion: String
        /// The server's name and version.
        public var serverInfo: ServerInfo
        /// `--bundle-id`.
        public var bundleIdentifier: String
        /// The two task identifiers.
        public var taskIdentifiers: TaskIdentifiers
        /// `--clock`.
        public var clock: ClockKind
        /// `--profile`.
        public var profile: Profile
        /// `--os`, written only under `--os ios` (a plugin without it runs `manual`).
        public var os: OSMode?
        /// `--os-seed`, written only under `--os ios`.
        public var osSeed: UInt64?

        /// The server's name.
        public var serverName: String { serverInfo.name }
        /// The server's version.
        public var serverVersion: String { serverInfo.version }
        /// `<bundle-id>.bg-refresh`.
        public var refreshIdentifier: String { taskIdentifiers.refresh }
        /// `<bundle-id>.bg-processing`.
        public var processingIdentifier: String { taskIdentifiers.processing }

        /// Creates a result.
        public init(
            protocolVersion: String = "1", serverName: String, serverVersion: String, bundleIdentifier: String,
            refreshIdentifier: String, processingIdentifier: String, clock: ClockKind, profile: Profile,
            os: OSMode? = nil, osSeed: UInt64? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.serverInfo = ServerInfo(name: serverName, version: serverVersion)
            self.bundleIdentifier = bundleIdentifier
            self.taskIdentifiers = TaskIdentifiers(refresh: refreshIdentifier, processing: processingIdentifier)
            self.clock = clock
            self.profile = profile
            self.os = os
            self.osSeed = osSeed
        }
    }
}

/// `shutdown`: rejects a pending `waitForCancel` (`shutdown`), resolves, then the plugin exits 0.
public enum Shutdown: RPCMethod {
    public static let name = "shutdown"
    public static let kind = MethodKind.session
    public typealias Params = EmptyParams
    public typealias Result = NullResult
}

/// `plugin/reset`: plugin and emulated OS back to their freshly started state
/// (a pending `waitForCancel` is first rejected with `reset`); the session is kept.
public enum PluginReset: RPCMethod {
    public static let name = "plugin/reset"
    public static let kind = MethodKind.session
    public typealias Params = EmptyParams
    public typealias Result = NullResult
}

/// `plugin/state`: a snapshot of the plugin and the emulated OS.
public enum PluginStateMethod: RPCMethod {
    public static let name = "plugin/state"
    public static let kind = MethodKind.session
    public typealias Params = EmptyParams
    public typealias Result = PluginStateSnapshot
}
