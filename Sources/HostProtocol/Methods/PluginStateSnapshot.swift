/// The result of `plugin/state`.
///
/// The contract's members, plus three of this implementation's own that a
/// reader may use but must not require of other plugins: `counters.dropped`
/// (invokes dropped without an answer), `cancelInvokePending` (unambiguous even
/// when the pending id is `null`), and `notificationAuthorizationRequests`.
public struct PluginStateSnapshot: JSONCodable, Hashable {
    /// The task that is running, as the plugin sees it.
    public struct ActiveTask: JSONCodable, Hashable {
        /// The task's identifier.
        public var identifier: String
        /// Refresh or processing.
        public var kind: TaskKind
        /// When it was launched.
        public var launchedAt: VirtualTime

        /// A running task.
        public init(identifier: String, kind: TaskKind, launchedAt: VirtualTime) {
            self.identifier = identifier
            self.kind = kind
            self.launchedAt = launchedAt
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json, path: "activeTask")
            identifier = try r.require("identifier", .string)
            kind = try r.require("kind", .oneOf)
            launchedAt = try r.require("launchedAt", .time)
        }

        public var json: JSONValue {
            ["identifier": .string(identifier), "kind": .string(kind.rawValue), "launchedAt": launchedAt.json]
        }
    }

    /// A registered launch handler.
    public struct Registration: JSONCodable, Hashable {
        /// The registered identifier.
        public var identifier: String
        /// The kind of task it launches.
        public var kind: TaskKind

        /// A registration.
        public init(identifier: String, kind: TaskKind) {
            self.identifier = identifier
            self.kind = kind
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json, path: "registered")
            identifier = try r.require("identifier", .string)
            kind = try r.require("kind", .oneOf)
        }

        public var json: JSONValue { ["identifier": .string(identifier), "kind": .string(kind.rawValue)] }
    }

    /// Running totals since start or the last reset.
    public struct Counters: JSONCodable, Hashable {
        /// Tasks launched.
        public var launched: Int
        /// Tasks completed (first completions only).
        public var completed: Int
        /// Expiration handlers run.
        public var expired: Int
        /// Rule violations reported (a second completion, a second answer).
        public var violations: Int
        /// Extension: invokes dropped without an answer (nil when the plugin does not report it).
        public var dropped: Int?
        /// `--os ios` only: apps killed by the watchdog (each also counted in `violations`).
        public var watchdogKills: Int?

        /// Counters; `dropped` 0 and `watchdogKills` absent unless given.
        public init(
            launched: Int = 0, completed: Int = 0, expired: Int = 0, violations: Int = 0, dropped: Int? = 0,
            watchdogKills: Int? = nil
        ) {
            self.launched = launched
            self.completed = completed
            self.expired = expired
            self.violations = violations
            self.dropped = dropped
            self.watchdogKills = watchdogKills
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json, path: "counters")
            launched = Int(try r.require("launched", .integer))
            completed = Int(try r.require("completed", .integer))
            expired = Int(try r.require("expired", .integer))
            violations = Int(try r.require("violations", .integer))
            dropped = try r.optional("dropped", .integer).map(Int.init)
            watchdogKills = try r.optional("watchdogKills", .integer).map(Int.init)
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = [
                "launched": .number(launched), "completed": .number(completed),
                "expired": .number(expired), "violations": .number(violations),
            ]
            if let dropped { o["dropped"] = .number(dropped) }
            if let watchdogKills { o["watchdogKills"] = .number(watchdogKills) }
            return .object(o)
        }
    }

    /// The plugin's clock now.
    public var now: VirtualTime
    /// `--clock`: virtual or real.
    public var clock: ClockKind
    /// `--profile`: seed or strict.
    public var profile: Profile
    /// The running task, or nil.
    public var activeTask: ActiveTask?
    /// The pending `waitForCancel`'s id, or nil (see ``cancelInvokePending`` for a `null` id).
    public var pendingCancelInvoke: RequestID?
    /// The safety timer's deadline, when one is scheduled.
    public var safetyTimerDeadline: VirtualTime?
    /// The six values `startKeepalive` stores.
    public var config: PluginConfig
    /// The scheduler's pending requests, sorted by identifier.
    public var pendingRequests: [TaskRequestInfo]
    /// The registered launch handlers.
    public var registered: [Registration]
    /// The emulated device's conditions.
    public var conditions: Conditions
    /// Running totals since start or `plugin/reset`.
    public var counters: Counters
    /// Extension: whether a cancel invoke is pending.
    public var cancelInvokePending: Bool?
    /// Extension: how many times notification authorization was requested.
    public var notificationAuthorizationRequests: Int?
    /// `--os ios` only: the app's process, the policy, the energy budget, the running task.
    public var ios: IOSStateSnapshot?

    /// A snapshot; the extensions are optional (nil: the plugin does not report them).
    public init(
        now: VirtualTime, clock: ClockKind, profile: Profile, activeTask: ActiveTask?, pendingCancelInvoke: RequestID?,
        safetyTimerDeadline: VirtualTime?, config: PluginConfig, pendingRequests: [TaskRequestInfo],
        registered: [Registration], conditions: Conditions, counters: Counters, cancelInvokePending: Bool?,
        notificationAuthorizationRequests: Int?, ios: IOSStateSnapshot? = nil
    ) {
        self.now = now
        self.clock = clock
        self.profile = profile
        self.activeTask = activeTask
        self.pendingCancelInvoke = pendingCancelInvoke
        self.safetyTimerDeadline = safetyTimerDeadline
        self.config = config
        self.pendingRequests = pendingRequests
        self.registered = registered
        self.conditions = conditions
        self.counters = counters
        self.cancelInvokePending = cancelInvokePending
        self.notificationAuthorizationRequests = notificationAuthorizationRequests
        self.ios = ios
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json)
        now = try r.require("now", .time)
        clock = try r.require("clock", .oneOf)
        profile = try r.require("profile", .oneOf)
        let active = try r.require("activeTask", .any)
        activeTask = active.isNull ? nil : try ActiveTask(json: active)
        let pending = try r.require("pendingCancelInvoke", .any)
        pendingCancelInvoke = pending.isNull ? nil : RequestID(json: pending)
        let timer = try r.require("safetyTimer", .any)
        safetyTimerDeadline =
            timer.isNull ? nil : try ObjectReader(timer, path: "safetyTimer").require("deadline", .time)
        config = try PluginConfig(json: try r.require("config", .any))
        pendingRequests = try r.require("pendingRequests", .array(of: .decoded))
        registered = try r.require("registered", .array(of: .decoded))
        conditions = try Conditions(json: try r.require("conditions", .any))
        counters = try Counters(json: try r.require("counters", .any))
        cancelInvokePending = try r.optional("cancelInvokePending", .bool)
        notificationAuthorizationRequests = try r.optional("notificationAuthorizationRequests", .integer).map(Int.init)
        ios = try r.optional("ios", .any).map { v throws(JSONDecodingError) in try IOSStateSnapshot(json: v) }
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "now": now.json,
            "clock": .string(clock.rawValue),
            "profile": .string(profile.rawValue),
            "activeTask": activeTask?.json ?? .null,
            "pendingCancelInvoke": pendingCancelInvoke?.json ?? .null,
            "safetyTimer": safetyTimerDeadline.map { ["deadline": $0.json] } ?? .null,
            "config": config.json,
            "pendingRequests": .array(pendingRequests.map(\.json)),
            "registered": .array(registered.map(\.json)),
            "conditions": conditions.json,
            "counters": counters.json,
        ]
        if let cancelInvokePending { o["cancelInvokePending"] = .bool(cancelInvokePending) }
        if let notificationAuthorizationRequests {
            o["notificationAuthorizationRequests"] = .number(notificationAuthorizationRequests)
        }
        if let ios { o["ios"] = ios.json }
        return .object(o)
    }
}
