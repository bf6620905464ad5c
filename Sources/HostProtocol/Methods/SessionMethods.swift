/// `initialize`: opens the session; `capabilities.events: true` turns events on.
public enum Initialize: RPCMethod {
    public static let name = "initialize"
    public static let kind = MethodKind.session

    /// `{capabilities: {events}}`.
    public struct Params: JSONCodable, Hashable {
        /// Whether the host wants event notifications.
        public var events: Bool?

        /// Creates params.
        public init(events: Bool? = nil) { self.events = events }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            guard let caps = r.members["capabilities"] else {
                events = nil
                return
            }
            events = try ObjectReader(caps, path: "capabilities").optional("events", .bool)
        }

        public var json: JSONValue {
            guard let events else { return ["capabilities": .object([:])] }
            return ["capabilities": ["events": .bool(events)]]
        }
    }

    /// What the plugin says about itself.
    public struct Result: JSONCodable, Hashable {
        /// Always `"1"` for this contract.
        public var protocolVersion: String
        /// The server's name.
        public var serverName: String
        /// The server's version.
        public var serverVersion: String
        /// `--bundle-id`.
        public var bundleIdentifier: String
        /// `<bundle-id>.bg-refresh`.
        public var refreshIdentifier: String
        /// `<bundle-id>.bg-processing`.
        public var processingIdentifier: String
        /// `--clock`.
        public var clock: ClockKind
        /// `--profile`.
        public var profile: Profile
        /// `--os`, written only under `--os ios` (a plugin without it runs `manual`).
        public var os: OSMode?
        /// `--os-seed`, written only under `--os ios`.
        public var osSeed: UInt64?

        /// Creates a result.
        public init(
            protocolVersion: String = "1", serverName: String, serverVersion: String, bundleIdentifier: String,
            refreshIdentifier: String, processingIdentifier: String, clock: ClockKind, profile: Profile,
            os: OSMode? = nil, osSeed: UInt64? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.bundleIdentifier = bundleIdentifier
            self.refreshIdentifier = refreshIdentifier
            self.processingIdentifier = processingIdentifier
            self.clock = clock
            self.profile = profile
            self.os = os
            self.osSeed = osSeed
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            protocolVersion = try r.require("protocolVersion", .string)
            let info = try ObjectReader(try r.require("serverInfo", .any), path: "serverInfo")
            serverName = try info.require("name", .string)
            serverVersion = try info.require("version", .string)
            bundleIdentifier = try r.require("bundleIdentifier", .string)
            let ids = try ObjectReader(try r.require("taskIdentifiers", .any), path: "taskIdentifiers")
            refreshIdentifier = try ids.require("refresh", .string)
            processingIdentifier = try ids.require("processing", .string)
            clock = try r.require("clock", .oneOf)
            profile = try r.require("profile", .oneOf)
            os = try r.optional("os", .oneOf)
            osSeed = try r.optional(
                "osSeed",
                JSONField(expected: "an integer from 0 to 2^64-1") { v in
                    guard case .number(let n) = v else { return nil }
                    return UInt64(n.literal)
                })
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = [
                "protocolVersion": .string(protocolVersion),
                "serverInfo": ["name": .string(serverName), "version": .string(serverVersion)],
                "bundleIdentifier": .string(bundleIdentifier),
                "taskIdentifiers": [
                    "refresh": .string(refreshIdentifier), "processing": .string(processingIdentifier),
                ],
                "clock": .string(clock.rawValue),
                "profile": .string(profile.rawValue),
            ]
            if let os { o["os"] = .string(os.rawValue) }
            if let osSeed { o["osSeed"] = .number(JSONNumber(uncheckedLiteral: String(osSeed))) }
            return .object(JSONObject(o))
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
