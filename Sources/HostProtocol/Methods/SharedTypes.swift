/// The two kinds of background task the plugin uses.
public enum TaskKind: String, Sendable, CaseIterable, Hashable {
    /// `BGAppRefreshTask`: about 30 s of budget, always gets a safety timer.
    case refresh
    /// `BGProcessingTask`: minutes, a safety timer only when configured.
    case processing
}

/// The plugin's behaviour profile (`--profile`).
public enum Profile: String, Sendable, CaseIterable, Hashable {
    /// Exactly as the seed plugin behaves, defects included.
    case seed
    /// The fixes: wrong-typed params are `-32602`, a superseded `waitForCancel` is rejected.
    case strict
}

/// Which clock drives the plugin (`--clock`).
public enum ClockKind: String, Sendable, CaseIterable, Hashable {
    /// Starts at 0 and moves only with `os/advanceTime`.
    case virtual
    /// Follows real time, scaled by `--time-scale`.
    case real
}

/// The user's Background App Refresh setting as the emulated OS sees it.
public enum BackgroundRefreshStatus: String, Sendable, CaseIterable, Hashable {
    /// Background App Refresh is on.
    case available
    /// The user turned it off.
    case denied
    /// Unavailable and the user cannot turn it on (for example parental controls).
    case restricted
}

/// A pending task request, as `os/pendingTaskRequests` and `os/requestSubmitted` show it.
public struct TaskRequestInfo: JSONCodable, Hashable {
    /// The task identifier.
    public var identifier: String
    /// Refresh or processing.
    public var kind: TaskKind
    /// The earliest time the task may begin, or nil for "as soon as possible".
    public var earliestBeginDate: VirtualTime?
    /// Processing only: needs external power (always false for refresh).
    public var requiresExternalPower: Bool
    /// Processing only: needs a network connection (always false for refresh).
    public var requiresNetworkConnectivity: Bool

    /// Creates a request description.
    public init(
        identifier: String, kind: TaskKind, earliestBeginDate: VirtualTime?, requiresExternalPower: Bool = false,
        requiresNetworkConnectivity: Bool = false
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json)
        identifier = try r.require("identifier", .string)
        kind = try r.require("kind", .oneOf)
        earliestBeginDate =
            r.members["earliestBeginDate"]?.isNull == true ? nil : try r.optional("earliestBeginDate", .time)
        requiresExternalPower = try r.require("requiresExternalPower", .bool)
        requiresNetworkConnectivity = try r.require("requiresNetworkConnectivity", .bool)
    }

    public var json: JSONValue {
        [
            "identifier": .string(identifier),
            "kind": .string(kind.rawValue),
            "earliestBeginDate": earliestBeginDate?.json ?? .null,
            "requiresExternalPower": .bool(requiresExternalPower),
            "requiresNetworkConnectivity": .bool(requiresNetworkConnectivity),
        ]
    }
}

/// The emulated device's conditions (`os/setConditions`).
public struct Conditions: JSONCodable, Hashable {
    /// Background App Refresh setting (default `available`).
    public var backgroundRefreshStatus: BackgroundRefreshStatus
    /// On external power (default false).
    public var externalPower: Bool
    /// Network connected (default true).
    public var networkConnected: Bool
    /// Whether advancing time launches eligible requests (default false; true under `--os ios`).
    public var autoLaunch: Bool
    /// `--os ios` only: battery, Low Power Mode, device in use (nil and not written otherwise).
    public var ios: IOSConditions?

    /// The defaults of a freshly started plugin.
    public static let defaults = Conditions(
        backgroundRefreshStatus: .available, externalPower: false, networkConnected: true, autoLaunch: false)

    /// The defaults of a freshly started `--os ios` plugin: the system launches on its own.
    public static let iosDefaults = Conditions(
        backgroundRefreshStatus: .available, externalPower: false, networkConnected: true, autoLaunch: true,
        ios: .defaults)

    /// Creates conditions.
    public init(
        backgroundRefreshStatus: BackgroundRefreshStatus, externalPower: Bool, networkConnected: Bool, autoLaunch: Bool,
        ios: IOSConditions? = nil
    ) {
        self.backgroundRefreshStatus = backgroundRefreshStatus
        self.externalPower = externalPower
        self.networkConnected = networkConnected
        self.autoLaunch = autoLaunch
        self.ios = ios
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json)
        backgroundRefreshStatus = try r.require("backgroundRefreshStatus", .oneOf)
        externalPower = try r.require("externalPower", .bool)
        networkConnected = try r.require("networkConnected", .bool)
        autoLaunch = try r.require("autoLaunch", .bool)
        ios = try IOSConditions.ifPresent(in: json)
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "backgroundRefreshStatus": .string(backgroundRefreshStatus.rawValue),
            "externalPower": .bool(externalPower),
            "networkConnected": .bool(networkConnected),
            "autoLaunch": .bool(autoLaunch),
        ]
        if let ios { o.merge(ios.members) { a, _ in a } }
        return .object(JSONObject(o))
    }
}

/// The six `ios…` values the plugin keeps between `startKeepalive` calls.
public struct PluginConfig: JSONCodable, Hashable {
    /// Refresh safety timer, seconds (default 28).
    public var iosSafetyTimeoutSecs: Double
    /// Processing safety timer, seconds; nil or <= 0 means none (default nil).
    public var iosProcessingSafetyTimeoutSecs: Double?
    /// Refresh `earliestBeginDate` offset, minutes (default 15).
    public var iosEarliestRefreshBeginMinutes: Double
    /// Processing `earliestBeginDate` offset, minutes (default 15).
    public var iosEarliestProcessingBeginMinutes: Double
    /// Processing requests need external power (default false).
    public var iosRequiresExternalPower: Bool
    /// Processing requests need network (default false).
    public var iosRequiresNetworkConnectivity: Bool

    /// The seed's defaults.
    public static let defaults = PluginConfig(
        iosSafetyTimeoutSecs: 28, iosProcessingSafetyTimeoutSecs: nil, iosEarliestRefreshBeginMinutes: 15,
        iosEarliestProcessingBeginMinutes: 15, iosRequiresExternalPower: false, iosRequiresNetworkConnectivity: false)

    /// Creates a config.
    public init(
        iosSafetyTimeoutSecs: Double, iosProcessingSafetyTimeoutSecs: Double?, iosEarliestRefreshBeginMinutes: Double,
        iosEarliestProcessingBeginMinutes: Double, iosRequiresExternalPower: Bool, iosRequiresNetworkConnectivity: Bool
    ) {
        self.iosSafetyTimeoutSecs = iosSafetyTimeoutSecs
        self.iosProcessingSafetyTimeoutSecs = iosProcessingSafetyTimeoutSecs
        self.iosEarliestRefreshBeginMinutes = iosEarliestRefreshBeginMinutes
        self.iosEarliestProcessingBeginMinutes = iosEarliestProcessingBeginMinutes
        self.iosRequiresExternalPower = iosRequiresExternalPower
        self.iosRequiresNetworkConnectivity = iosRequiresNetworkConnectivity
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json)
        iosSafetyTimeoutSecs = try r.require("iosSafetyTimeoutSecs", .number)
        iosProcessingSafetyTimeoutSecs =
            r.members["iosProcessingSafetyTimeoutSecs"]?.isNull == true
            ? nil : try r.optional("iosProcessingSafetyTimeoutSecs", .number)
        iosEarliestRefreshBeginMinutes = try r.require("iosEarliestRefreshBeginMinutes", .number)
        iosEarliestProcessingBeginMinutes = try r.require("iosEarliestProcessingBeginMinutes", .number)
        iosRequiresExternalPower = try r.require("iosRequiresExternalPower", .bool)
        iosRequiresNetworkConnectivity = try r.require("iosRequiresNetworkConnectivity", .bool)
    }

    public var json: JSONValue {
        [
            "iosSafetyTimeoutSecs": .number(iosSafetyTimeoutSecs),
            "iosProcessingSafetyTimeoutSecs": iosProcessingSafetyTimeoutSecs.map { .number($0) } ?? .null,
            "iosEarliestRefreshBeginMinutes": .number(iosEarliestRefreshBeginMinutes),
            "iosEarliestProcessingBeginMinutes": .number(iosEarliestProcessingBeginMinutes),
            "iosRequiresExternalPower": .bool(iosRequiresExternalPower),
            "iosRequiresNetworkConnectivity": .bool(iosRequiresNetworkConnectivity),
        ]
    }
}
