/// Params naming one task identifier.
public struct IdentifierParams: JSONCodable, Codable, Hashable {
    /// The task identifier.
    public var identifier: String

    /// Creates params.
    public init(identifier: String) { self.identifier = identifier }
}

/// `os/launch`: like the debugger's simulate-launch. Needs a pending request for
/// the identifier (and removes it), ignores `earliestBeginDate`; `-32002` while a
/// task runs or with nothing pending; `-32602` for an identifier never registered.
public enum OSLaunch: RPCMethod {
    public static let name = "os/launch"
    public static let kind = MethodKind.osControl
    public typealias Params = IdentifierParams

    /// `{identifier, kind, at}`.
    public struct Result: JSONCodable, Codable, Hashable {
        /// The launched task's identifier.
        public var identifier: String
        /// Its kind.
        public var kind: TaskKind
        /// When it was launched.
        public var at: VirtualTime

        /// A launch result.
        public init(identifier: String, kind: TaskKind, at: VirtualTime) {
            self.identifier = identifier
            self.kind = kind
            self.at = at
        }
    }
}

/// `os/expire`: runs the running task's expiration handler; `-32002` when that
/// task is not running.
public enum OSExpire: RPCMethod {
    public static let name = "os/expire"
    public static let kind = MethodKind.osControl
    public typealias Params = IdentifierParams
    public typealias Result = NullResult
}

/// `os/advanceTime`: moves the virtual clock forward, firing due timers (and, with
/// `autoLaunch`, launching eligible requests) each at its own time.
public enum OSAdvanceTime: RPCMethod {
    public static let name = "os/advanceTime"
    public static let kind = MethodKind.osControl

    /// `{seconds}`: how far to advance.
    public typealias Params = SecondsParams

    /// `{now}`.
    public struct Result: JSONCodable, Codable, Hashable {
        /// The clock after the advance.
        public var now: VirtualTime

        /// An advance's result.
        public init(now: VirtualTime) { self.now = now }

    }
}

/// A list of task requests (the result of `os/pendingTaskRequests`).
public struct TaskRequestList: JSONCodable, Codable, Hashable {
    /// The requests, sorted by identifier.
    public var requests: [TaskRequestInfo]

    /// A list of requests (sorted by the caller).
    public init(_ requests: [TaskRequestInfo]) { self.requests = requests }

    /// Reads the array; any element that is not a task request fails the whole.
    public init(from decoder: any Decoder) throws {
        do {
            requests = try decoder.singleValueContainer().decode([TaskRequestInfo].self)
        } catch {
            throw JSONDecodingError(path: "", expected: "an array of task requests", found: decoder.jsonTypeName)
        }
    }

    /// Written as the bare array.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(requests)
    }
}

/// `os/pendingTaskRequests`: the pending requests, sorted by identifier.
public enum OSPendingTaskRequests: RPCMethod {
    public static let name = "os/pendingTaskRequests"
    public static let kind = MethodKind.osControl
    public typealias Params = EmptyParams
    public typealias Result = TaskRequestList
}

/// `os/setConditions`: changes any of the conditions; returns all of them. Launches nothing.
public enum OSSetConditions: RPCMethod {
    public static let name = "os/setConditions"
    public static let kind = MethodKind.osControl
    public typealias Result = Conditions

    /// Any subset of the conditions.
    public struct Params: JSONCodable, Codable, Hashable {
        /// The Background App Refresh setting.
        public var backgroundRefreshStatus: BackgroundRefreshStatus?
        /// Whether the device is on external power.
        public var externalPower: Bool?
        /// Whether the device has a network.
        public var networkConnected: Bool?
        /// Whether the OS launches eligible requests as time advances.
        public var autoLaunch: Bool?

        /// Params; nil members are not sent (and not changed).
        public init(
            backgroundRefreshStatus: BackgroundRefreshStatus? = nil, externalPower: Bool? = nil,
            networkConnected: Bool? = nil, autoLaunch: Bool? = nil
        ) {
            self.backgroundRefreshStatus = backgroundRefreshStatus
            self.externalPower = externalPower
            self.networkConnected = networkConnected
            self.autoLaunch = autoLaunch
        }
    }
}

extension OSSetConditions {
    /// The params under `--os ios`: the contract's members plus `batteryLevel` (a
    /// number from 0 to 1), `lowPowerMode` and `deviceInUse` (booleans). Under
    /// `--os manual` those are unknown members, ignored like any other.
    public struct IOSParams: JSONCodable, Codable, Hashable {
        /// The contract's four members.
        @Flattened public var base: Params
        /// The battery's charge, 0 to 1 (checked as it is read).
        @UnitInterval public var batteryLevel: Double?
        /// Low Power Mode.
        public var lowPowerMode: Bool?
        /// Whether the user is using the device.
        public var deviceInUse: Bool?

        /// Params; nil members are not sent (and not changed).
        public init(
            base: Params = Params(), batteryLevel: Double? = nil, lowPowerMode: Bool? = nil, deviceInUse: Bool? = nil
        ) {
            self.base = base
            self.batteryLevel = batteryLevel
            self.lowPowerMode = lowPowerMode
            self.deviceInUse = deviceInUse
        }
    }
}

/// `os/submit` (this implementation's extension): a direct `BGTaskScheduler.submit`
/// of any request, so that the scheduler's rules can be driven from outside.
/// Failures are `-32001` with `data.scheduler`.
public enum OSSubmit: RPCMethod {
    public static let name = "os/submit"
    public static let kind = MethodKind.osControl
    public typealias Result = TaskRequestInfo

    /// The request to submit.
    public struct Params: JSONCodable, Codable, Hashable, JSONValidated {
        /// The request's identifier.
        public var identifier: String
        /// Refresh or processing.
        public var kind: TaskKind
        /// Absolute time on the plugin's clock, or nil (`null` reads as nil).
        @NullAsAbsent public var earliestBeginDate: VirtualTime?
        /// Processing only: needs external power (default false).
        public var requiresExternalPower: Bool?
        /// Processing only: needs a network (default false).
        public var requiresNetworkConnectivity: Bool?

        /// A request to submit.
        public init(
            identifier: String, kind: TaskKind, earliestBeginDate: VirtualTime? = nil,
            requiresExternalPower: Bool? = nil, requiresNetworkConnectivity: Bool? = nil
        ) {
            self.identifier = identifier
            self.kind = kind
            self.earliestBeginDate = earliestBeginDate
            self.requiresExternalPower = requiresExternalPower
            self.requiresNetworkConnectivity = requiresNetworkConnectivity
        }

        /// The rule: constraints only on a processing request.
        public func validate() throws(JSONDecodingError) {
            if kind == .refresh, requiresExternalPower == true || requiresNetworkConnectivity == true {
                throw JSONDecodingError(path: "kind", expected: "processing when constraints are set", found: "refresh")
            }
        }
    }
}
