/// The two kinds of background task the plugin uses.
public enum TaskKind: String, JSONStringEnum, Hashable {
    /// `BGAppRefreshTask`: about 30 s of budget, always gets a safety timer.
    case refresh
    /// `BGProcessingTask`: minutes, a safety timer only when configured.
    case processing
}

/// The plugin's behaviour profile (`--profile`).
public enum Profile: String, JSONStringEnum, Hashable {
    /// Exactly as the seed plugin behaves, defects included.
    case seed
    /// The fixes: wrong-typed params are `-32602`, a superseded `waitForCancel` is rejected.
    case strict
}

/// Which clock drives the plugin (`--clock`).
public enum ClockKind: String, JSONStringEnum, Hashable {
    /// Starts at 0 and moves only with `os/advanceTime`.
    case virtual
    /// Follows real time, scaled by `--time-scale`.
    case real
}

/// The user's Background App Refresh setting as the emulated OS sees it.
public enum BackgroundRefreshStatus: String, JSONStringEnum, Hashable {
    /// Background App Refresh is on.
    case available
    /// The user turned it off.
    case denied
    /// Unavailable and the user cannot turn it on (for example parental controls).
    case restricted
}

/// A pending task request, as `os/pendingTaskRequests` and `os/requestSubmitted` show it.
public struct TaskRequestInfo: JSONCodable, Codable, Hashable {
    /// The task identifier.
    public var identifier: String
    /// Refresh or processing.
    public var kind: TaskKind
    /// The earliest time the task may begin, or nil for "as soon as possible" (written as `null`).
    @ExplicitNull public var earliestBeginDate: VirtualTime?
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
}

/// The emulated device's conditions (`os/setConditions`).
public struct Conditions: JSONCodable, Codable, Hashable {
    /// Background App Refresh setting (default `available`).
    public var backgroundRefreshStatus: BackgroundRefreshStatus
    /// On external power (default false).
    public var externalPower: Bool
    /// Network connected (default true).
    public var networkConnected: Bool
    /// Whether advancing time launches eligible requests (default false; true under `--os ios`).
    public var autoLaunch: Bool
    /// `--os ios` only: battery, Low Power Mode, device in use (nil and not written otherwise).
    @Flattened public var ios: IOSConditions?

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
}

/// The six `ios…` values the plugin keeps between `startKeepalive` calls.
public struct PluginConfig: JSONCodable, Codable, Hashable {
    /// Refresh safety timer, seconds (default 28).
    public var iosSafetyTimeoutSecs: Double
    /// Processing safety timer, seconds; nil (written as `null`) or <= 0 means none (default nil).
    @ExplicitNull public var iosProcessingSafetyTimeoutSecs: Double?
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
}
