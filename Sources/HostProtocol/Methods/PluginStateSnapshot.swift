/// The result of `plugin/state`.
///
/// The contract's members, plus three of this implementation's own that a
/// reader may use but must not require of other plugins: `counters.dropped`
/// (invokes dropped without an answer), `cancelInvokePending` (unambiguous even
/// when the pending id is `null`), and `notificationAuthorizationRequests`.
public struct PluginStateSnapshot: JSONCodable, Codable, Hashable {
    /// The task that is running, as the plugin sees it.
    public struct ActiveTask: JSONCodable, Codable, Hashable {
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
    }

    /// A registered launch handler.
    public struct Registration: JSONCodable, Codable, Hashable {
        /// The registered identifier.
        public var identifier: String
        /// The kind of task it launches.
        public var kind: TaskKind

        /// A registration.
        public init(identifier: String, kind: TaskKind) {
            self.identifier = identifier
            self.kind = kind
        }
    }

    /// Running totals since start or the last reset.
    public struct Counters: JSONCodable, Codable, Hashable {
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
        /// `--os ios` only: app processes ended by an uncaught exception (`os/appTerminated`
        /// reason `crash`; each also counted in `violations`).
        public var crashes: Int?

        /// Counters; `dropped` 0, `watchdogKills` and `crashes` absent unless given.
        public init(
            launched: Int = 0, completed: Int = 0, expired: Int = 0, violations: Int = 0, dropped: Int? = 0,
            watchdogKills: Int? = nil, crashes: Int? = nil
        ) {
            self.launched = launched
            self.completed = completed
            self.expired = expired
            self.violations = violations
            self.dropped = dropped
            self.watchdogKills = watchdogKills
            self.crashes = crashes
        }
    }

    /// The scheduled safety timer.
    public struct SafetyTimer: Codable, Hashable, Sendable {
        /// When it fires.
        public var deadline: VirtualTime
    }

    /// The safety timer's deadline, when one is scheduled.
    public var safetyTimerDeadline: VirtualTime? {
        get { safetyTimer?.deadline }
        set { safetyTimer = newValue.map(SafetyTimer.init(deadline:)) }
    }

    /// The plugin's clock now.
    public var now: VirtualTime
    /// `--clock`: virtual or real.
    public var clock: ClockKind
    /// `--profile`: seed or strict.
    public var profile: Profile
    /// The running task, or nil.
    @ExplicitNull public var activeTask: ActiveTask?
    /// The pending `waitForCancel`'s id, or nil (see ``cancelInvokePending`` for a `null` id).
    @ExplicitNull public var pendingCancelInvoke: RequestID?
    /// The safety timer, when one is scheduled (`{deadline}`, else `null`).
    @ExplicitNull public var safetyTimer: SafetyTimer?
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
        self.safetyTimer = safetyTimerDeadline.map(SafetyTimer.init(deadline:))
        self.config = config
        self.pendingRequests = pendingRequests
        self.registered = registered
        self.conditions = conditions
        self.counters = counters
        self.cancelInvokePending = cancelInvokePending
        self.notificationAuthorizationRequests = notificationAuthorizationRequests
        self.ios = ios
    }

}
