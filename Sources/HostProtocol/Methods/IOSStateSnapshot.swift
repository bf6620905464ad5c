/// The `ios` member of `plugin/state` (present only under `--os ios`): the app's
/// process, the policy, the energy budget, the OS's view of the running task, and
/// when the OS next acts on its own (for a host that steps its clock with the plugin's).
public struct IOSStateSnapshot: JSONCodable, Hashable {
    /// The daily energy budget.
    public struct Energy: JSONCodable, Hashable {
        /// Whole launches the budget holds now.
        public var launchesAvailable: Int
        /// Launches it holds when full (`energyBudgetLaunches`).
        public var capacity: Int
        /// When it will be full again (now when it is).
        public var fullAt: VirtualTime

        /// An energy budget's state.
        public init(launchesAvailable: Int, capacity: Int, fullAt: VirtualTime) {
            self.launchesAvailable = launchesAvailable
            self.capacity = capacity
            self.fullAt = fullAt
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json, path: "energy")
            launchesAvailable = Int(try r.require("launchesAvailable", .integer))
            capacity = Int(try r.require("capacity", .integer))
            fullAt = try r.require("fullAt", .time)
        }

        public var json: JSONValue {
            ["launchesAvailable": .number(launchesAvailable), "capacity": .number(capacity), "fullAt": fullAt.json]
        }
    }

    /// The running task as the OS sees it: its budget and, once expired, the watchdog.
    public struct RunningTask: JSONCodable, Hashable {
        /// The running task's identifier.
        public var identifier: String
        /// When the OS expires it (nil once its expiration handler ran).
        public var budgetDeadline: VirtualTime?
        /// When its expiration handler ran, if it did.
        public var expiredAt: VirtualTime?
        /// When the watchdog kills the app unless the task is completed first.
        public var watchdogDeadline: VirtualTime?

        /// The OS's view of the running task.
        public init(
            identifier: String, budgetDeadline: VirtualTime?, expiredAt: VirtualTime?, watchdogDeadline: VirtualTime?
        ) {
            self.identifier = identifier
            self.budgetDeadline = budgetDeadline
            self.expiredAt = expiredAt
            self.watchdogDeadline = watchdogDeadline
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json, path: "runningTask")
            identifier = try r.require("identifier", .string)
            func time(_ key: String) throws(JSONDecodingError) -> VirtualTime? {
                let v = try r.require(key, .any)
                return v.isNull ? nil : try r.require(key, .time)
            }
            budgetDeadline = try time("budgetDeadline")
            expiredAt = try time("expiredAt")
            watchdogDeadline = try time("watchdogDeadline")
        }

        public var json: JSONValue {
            [
                "identifier": .string(identifier), "budgetDeadline": budgetDeadline?.json ?? .null,
                "expiredAt": expiredAt?.json ?? .null, "watchdogDeadline": watchdogDeadline?.json ?? .null,
            ]
        }
    }

    /// The app's process.
    public var app: AppStatus
    /// The policy's knobs.
    public var policy: IOSPolicy
    /// The daily energy budget.
    public var energy: Energy
    /// The running task as the OS sees it, or nil.
    public var runningTask: RunningTask?
    /// The time of the next autonomous event (a timer, the watchdog, a budget, a
    /// deferral report, a launch) if only the clock moves; nil when none is due.
    public var nextEventAt: VirtualTime?

    /// The `ios` member.
    public init(
        app: AppStatus, policy: IOSPolicy, energy: Energy, runningTask: RunningTask?, nextEventAt: VirtualTime? = nil
    ) {
        self.app = app
        self.policy = policy
        self.energy = energy
        self.runningTask = runningTask
        self.nextEventAt = nextEventAt
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json, path: "ios")
        app = try AppStatus(json: try r.require("app", .any))
        policy = try IOSPolicy(json: try r.require("policy", .any))
        energy = try Energy(json: try r.require("energy", .any))
        let running = try r.require("runningTask", .any)
        runningTask = running.isNull ? nil : try RunningTask(json: running)
        let next = try r.require("nextEventAt", .any)
        nextEventAt = next.isNull ? nil : try r.require("nextEventAt", .time)
    }

    public var json: JSONValue {
        [
            "app": app.json, "policy": policy.json, "energy": energy.json, "runningTask": runningTask?.json ?? .null,
            "nextEventAt": nextEventAt?.json ?? .null,
        ]
    }
}
