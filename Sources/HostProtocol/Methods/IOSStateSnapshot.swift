/// The `ios` member of `plugin/state` (present only under `--os ios`): the app's
/// process, the policy, the energy budget, the OS's view of the running task, and
/// when the OS next acts on its own (for a host that steps its clock with the plugin's).
public struct IOSStateSnapshot: JSONCodable, Codable, Hashable {
    /// The daily energy budget.
    public struct Energy: JSONCodable, Codable, Hashable {
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
    }

    /// The running task as the OS sees it: its budget and, once expired, the watchdog.
    public struct RunningTask: JSONCodable, Codable, Hashable {
        /// The running task's identifier.
        public var identifier: String
        /// When the OS expires it (nil once its expiration handler ran).
        @ExplicitNull public var budgetDeadline: VirtualTime?
        /// When its expiration handler ran, if it did.
        @ExplicitNull public var expiredAt: VirtualTime?
        /// When the watchdog kills the app unless the task is completed first.
        @ExplicitNull public var watchdogDeadline: VirtualTime?
        /// In `runningTasks` only: whether the app's code still holds the task to complete it
        /// (false: the task runs without an owner, and nothing will complete it).
        public var heldByApp: Bool?

        /// The OS's view of the running task.
        public init(
            identifier: String, budgetDeadline: VirtualTime?, expiredAt: VirtualTime?, watchdogDeadline: VirtualTime?,
            heldByApp: Bool? = nil
        ) {
            self.identifier = identifier
            self.budgetDeadline = budgetDeadline
            self.expiredAt = expiredAt
            self.watchdogDeadline = watchdogDeadline
            self.heldByApp = heldByApp
        }
    }

    /// The app's process.
    public var app: AppStatus
    /// The policy's knobs.
    public var policy: IOSPolicy
    /// The daily energy budget.
    public var energy: Energy
    /// The running task as the OS sees it, or nil; with several running, the first launched
    /// (``runningTasks`` lists them all).
    @ExplicitNull public var runningTask: RunningTask?
    /// The time of the next autonomous event (a timer, the watchdog, a budget, a
    /// deferral report, a launch) if only the clock moves; nil when none is due.
    @ExplicitNull public var nextEventAt: VirtualTime?
    /// Every task the OS launched and still counts as running, in launch order (empty when
    /// none runs): a refresh and a processing task may run together (`maxConcurrentTasks`).
    public var runningTasks: [RunningTask]
    /// With the policy's `appStates`: where the app is (`foreground`, `background`, `suspended`,
    /// `notRunning`); absent otherwise.
    public var appState: AppState?
    /// With the policy's `usageScheduling`: when the user last used the app (the session's start
    /// counts as a use; the current time while the app is in the foreground); absent otherwise.
    public var lastUsedAt: VirtualTime?

    /// The `ios` member; `runningTasks` defaults to `runningTask` alone.
    public init(
        app: AppStatus, policy: IOSPolicy, energy: Energy, runningTask: RunningTask?, nextEventAt: VirtualTime? = nil,
        runningTasks: [RunningTask]? = nil, appState: AppState? = nil, lastUsedAt: VirtualTime? = nil
    ) {
        self.app = app
        self.policy = policy
        self.energy = energy
        self.runningTask = runningTask
        self.nextEventAt = nextEventAt
        self.runningTasks = runningTasks ?? (runningTask.map { [$0] } ?? [])
        self.appState = appState
        self.lastUsedAt = lastUsedAt
    }

}
