/// Params naming one task identifier.
public struct IdentifierParams: JSONCodable, Hashable {
    /// The task identifier.
    public var identifier: String

    /// Creates params.
    public init(identifier: String) { self.identifier = identifier }

    public init(json: JSONValue) throws(JSONDecodingError) {
        identifier = try ObjectReader(json).require("identifier", .string)
    }

    public var json: JSONValue { ["identifier": .string(identifier)] }
}

/// `os/launch`: like the debugger's simulate-launch. Needs a pending request for
/// the identifier (and removes it), ignores `earliestBeginDate`; `-32002` while a
/// task runs or with nothing pending; `-32602` for an identifier never registered.
public enum OSLaunch: RPCMethod {
    public static let name = "os/launch"
    public static let kind = MethodKind.osControl
    public typealias Params = IdentifierParams

    /// `{identifier, kind, at}`.
    public struct Result: JSONCodable, Hashable {
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

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            identifier = try r.require("identifier", .string)
            kind = try r.require("kind", .oneOf)
            at = try r.require("at", .time)
        }

        public var json: JSONValue {
            ["identifier": .string(identifier), "kind": .string(kind.rawValue), "at": at.json]
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

    /// `{seconds}`: finite and >= 0. Plain decimals convert to nanoseconds exactly.
    public struct Params: JSONCodable, Hashable {
        /// How far to advance.
        public var duration: VirtualTime

        /// How far to advance, in seconds (rounded to the nanosecond).
        public var seconds: Double { duration.seconds }

        /// Creates params from seconds.
        public init(seconds: Double) { duration = VirtualTime(seconds: seconds) ?? .zero }

        /// Creates params from an exact duration.
        public init(duration: VirtualTime) { self.duration = duration }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            duration = try r.require("seconds", .time)
            guard duration.nanoseconds >= 0, r.members["seconds"]?.doubleValue.map({ $0 >= 0 }) ?? true else {
                throw JSONDecodingError(path: "seconds", expected: "a number >= 0", found: "\(r.members["seconds"]!)")
            }
        }

        public var json: JSONValue { ["seconds": duration.json] }
    }

    /// `{now}`.
    public struct Result: JSONCodable, Hashable {
        /// The clock after the advance.
        public var now: VirtualTime

        /// An advance's result.
        public init(now: VirtualTime) { self.now = now }

        public init(json: JSONValue) throws(JSONDecodingError) {
            now = try ObjectReader(json).require("now", .time)
        }

        public var json: JSONValue { ["now": now.json] }
    }
}

/// A list of task requests (the result of `os/pendingTaskRequests`).
public struct TaskRequestList: JSONCodable, Hashable {
    /// The requests, sorted by identifier.
    public var requests: [TaskRequestInfo]

    /// A list of requests (sorted by the caller).
    public init(_ requests: [TaskRequestInfo]) { self.requests = requests }

    public init(json: JSONValue) throws(JSONDecodingError) {
        guard let a = JSONField<[TaskRequestInfo]>.array(of: .decoded).read(json) else {
            throw JSONDecodingError(path: "", expected: "an array of task requests", found: json.typeName)
        }
        requests = a
    }

    public var json: JSONValue { .array(requests.map(\.json)) }
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
    public struct Params: JSONCodable, Hashable {
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

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            backgroundRefreshStatus = try r.optional("backgroundRefreshStatus", .oneOf)
            externalPower = try r.optional("externalPower", .bool)
            networkConnected = try r.optional("networkConnected", .bool)
            autoLaunch = try r.optional("autoLaunch", .bool)
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = [:]
            if let v = backgroundRefreshStatus { o["backgroundRefreshStatus"] = .string(v.rawValue) }
            if let v = externalPower { o["externalPower"] = .bool(v) }
            if let v = networkConnected { o["networkConnected"] = .bool(v) }
            if let v = autoLaunch { o["autoLaunch"] = .bool(v) }
            return .object(o)
        }
    }
}

extension OSSetConditions {
    /// The params under `--os ios`: the contract's members plus `batteryLevel` (a
    /// number from 0 to 1), `lowPowerMode` and `deviceInUse` (booleans). Under
    /// `--os manual` those are unknown members, ignored like any other.
    public struct IOSParams: JSONCodable, Hashable {
        /// The contract's four members.
        public var base: Params
        /// The battery's charge, 0 to 1.
        public var batteryLevel: Double?
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

        public init(json: JSONValue) throws(JSONDecodingError) {
            base = try Params(json: json)
            let r = try ObjectReader(json)
            batteryLevel = try r.optional("batteryLevel", .number)
            if let level = batteryLevel, !(0...1).contains(level) {
                throw JSONDecodingError(
                    path: "batteryLevel", expected: "a number from 0 to 1", found: "\(JSONNumber(level))")
            }
            lowPowerMode = try r.optional("lowPowerMode", .bool)
            deviceInUse = try r.optional("deviceInUse", .bool)
        }

        public var json: JSONValue {
            guard case .object(var o) = base.json else { return base.json }
            if let v = batteryLevel { o["batteryLevel"] = .number(v) }
            if let v = lowPowerMode { o["lowPowerMode"] = .bool(v) }
            if let v = deviceInUse { o["deviceInUse"] = .bool(v) }
            return .object(o)
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
    public struct Params: JSONCodable, Hashable {
        /// The request's identifier.
        public var identifier: String
        /// Refresh or processing.
        public var kind: TaskKind
        /// Absolute time on the plugin's clock, or nil.
        public var earliestBeginDate: VirtualTime?
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

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            identifier = try r.require("identifier", .string)
            kind = try r.require("kind", .oneOf)
            earliestBeginDate =
                r.members["earliestBeginDate"]?.isNull == true ? nil : try r.optional("earliestBeginDate", .time)
            requiresExternalPower = try r.optional("requiresExternalPower", .bool)
            requiresNetworkConnectivity = try r.optional("requiresNetworkConnectivity", .bool)
            if kind == .refresh, requiresExternalPower == true || requiresNetworkConnectivity == true {
                throw JSONDecodingError(path: "kind", expected: "processing when constraints are set", found: "refresh")
            }
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = ["identifier": .string(identifier), "kind": .string(kind.rawValue)]
            if let earliestBeginDate { o["earliestBeginDate"] = earliestBeginDate.json }
            if let v = requiresExternalPower { o["requiresExternalPower"] = .bool(v) }
            if let v = requiresNetworkConnectivity { o["requiresNetworkConnectivity"] = .bool(v) }
            return .object(o)
        }
    }
}
