/// The knobs of the `--os ios` policy (`os/setPolicy`, `plugin/state`'s `ios.policy`).
///
/// Times are seconds. `docs/protocol.md` ("--os ios") says why each default is what it is.
public struct IOSPolicy: JSONCodable, Codable, Hashable {
    /// A refresh task's usual runtime budget (default 30, Apple's "about 30 seconds").
    @InRange<BudgetSeconds> public var refreshBudgetSecs: Double
    /// The chance that a refresh task's budget is an early one instead (default 0.2).
    @InRange<Chance> public var refreshEarlyExpiryChance: Double
    /// The early budget's range, drawn uniformly per launch (default 2 to 5: field reports).
    @InRange<Seconds> public var refreshEarlyExpiryMinSecs: Double
    /// The early budget's upper end, seconds (default 5).
    @InRange<Seconds> public var refreshEarlyExpiryMaxSecs: Double
    /// A processing task's runtime budget (default 600: "minutes").
    @InRange<BudgetSeconds> public var processingBudgetSecs: Double
    /// How long after its expiration handler ran a task may stay uncompleted before
    /// the watchdog kills the app (default 5).
    @InRange<Seconds> public var watchdogGraceSecs: Double
    /// The system's delay after `earliestBeginDate`, drawn uniformly per submission
    /// (defaults: refresh 0 to 1800, processing 0 to 3600).
    @InRange<Seconds> public var refreshDelayMinSecs: Double
    /// The refresh delay's upper end, seconds (default 1800).
    @InRange<Seconds> public var refreshDelayMaxSecs: Double
    /// The processing delay's lower end, seconds (default 0).
    @InRange<Seconds> public var processingDelayMinSecs: Double
    /// The processing delay's upper end, seconds (default 3600).
    @InRange<Seconds> public var processingDelayMaxSecs: Double
    /// Background launches the daily energy budget holds; it refills evenly over 24 h
    /// and each launch spends one (default 12).
    @InRange<LaunchesPerDay> public var energyBudgetLaunches: Int
    /// Minimum time between two launches of one identifier (default 600).
    @InRange<Seconds> public var minLaunchSpacingSecs: Double
    /// The app loads the plugin after `didFinishLaunching` (default false): its
    /// registrations then fail, as Apple's `NSInternalInconsistencyException` says. The bare
    /// effect, kept for compatibility; `multipleScenes` is a cause of it.
    public var pluginLoadsLate: Bool
    /// A misuse of `BGTaskScheduler` that is an uncaught `NSInternalInconsistencyException` on a
    /// device (a late or second registration, a launch with no handler) ends the app's process
    /// (`os/appTerminated` reason `crash`; default true). False: it is only reported
    /// (`os/violation`) and the app lives on, so that its consequence can be seen.
    public var crashOnMisuse: Bool
    /// The app declares multiple scenes (UIScene; default false): tao then creates the first
    /// window, and Tauri loads the plugin with its webview, when a scene connects, after
    /// `didFinishLaunching` returned; every process's registration is late (the cause of which
    /// `pluginLoadsLate` is the bare effect; either makes `load` run late).
    public var multipleScenes: Bool
    /// How many tasks the system runs at once (default nil: no limit, so a refresh and a
    /// processing task may run together, as on a device: immich-app/immich pull request
    /// 22111); `1` is the seed's assumption (seed lines 52-57). Written only when set.
    @InRangeIfPresent<ConcurrentTasks> public var maxConcurrentTasks: Int?
    /// The app's states (issue 23; default true; false under `--ios-defaults legacy`, the
    /// model before it: a process is only running or not). True: `foreground`, `background`,
    /// `suspended` and `notRunning`, with their rules (`docs/rules.md`, "App states").
    /// Written only when set.
    public var appStates: Bool?
    /// With `appStates`: how long an app in the background with no task running stays
    /// unsuspended (default 5: Apple, "Extending your app's background execution time":
    /// `applicationDidEnterBackground` has about five seconds, and shortly after it returns the
    /// system suspends the app). Written only when set.
    @InRangeIfPresent<Seconds> public var suspendDelaySecs: Double?
    /// With `appStates`: the chance that a suspension ends in jetsam (the system terminates the
    /// suspended app to reclaim memory), drawn at each suspension (default 0.1). Written only when set.
    @InRangeIfPresent<Chance> public var jetsamChance: Double?
    /// With `appStates`: the jetsam comes at a time drawn uniformly, to the millisecond, from the
    /// suspension to this many seconds after it (default 3600). Written only when set.
    @InRangeIfPresent<Seconds> public var jetsamWithinSecs: Double?
    /// Scheduling driven by use (issue 23; default true, false under `--ios-defaults legacy`):
    /// the usage score, the week without use, the refresh spacing (`docs/rules.md`, "App
    /// usage"). Written only when set.
    public var usageScheduling: Bool?
    /// With `usageScheduling`: the usage score halves every this many seconds without use
    /// (default 86400, a day). Written only when set.
    @InRangeIfPresent<Seconds> public var usageHalfLifeSecs: Double?
    /// With `usageScheduling`: an app not used for this long gets no discretionary launch
    /// (default 604800, a week). Written only when set.
    @InRangeIfPresent<Seconds> public var usageWindowSecs: Double?
    /// With `usageScheduling`: a refresh launch comes at least this long, divided by the usage
    /// score, after the previous launch of its identifier (default 21600, 6 hours). Written only when set.
    @InRangeIfPresent<Seconds> public var usageRefreshIntervalSecs: Double?
    /// With `usageScheduling`: a processing launch comes at least this long, divided by the usage
    /// score, after the previous launch of its identifier (default 86400, a day). Written only when set.
    @InRangeIfPresent<Seconds> public var usageProcessingIntervalSecs: Double?

    /// The suspension delay in effect (`suspendDelaySecs`, else 5).
    public var effectiveSuspendDelaySecs: Double { suspendDelaySecs ?? IOSPolicy.defaultSuspendDelaySecs }

    /// `suspendDelaySecs`' default.
    public static let defaultSuspendDelaySecs: Double = 5

    /// The defaults (`--ios-defaults device`, the default): ``legacy`` with the app's states
    /// and scheduling driven by use on (issue 23), so that a week plays as field reports
    /// describe (`docs/rules.md`, "A week with the default policy").
    public static let defaults: IOSPolicy = {
        var policy = legacy
        policy.appStates = true
        policy.usageScheduling = true
        return policy
    }()

    /// The defaults before issue 23 (`--ios-defaults legacy`): no app states, no usage; the
    /// members of both are left out of the written policy, as they were then.
    public static let legacy = IOSPolicy(
        refreshBudgetSecs: 30, refreshEarlyExpiryChance: 0.2, refreshEarlyExpiryMinSecs: 2,
        refreshEarlyExpiryMaxSecs: 5,
        processingBudgetSecs: 600, watchdogGraceSecs: 5, refreshDelayMinSecs: 0, refreshDelayMaxSecs: 1800,
        processingDelayMinSecs: 0, processingDelayMaxSecs: 3600, energyBudgetLaunches: 12, minLaunchSpacingSecs: 600,
        pluginLoadsLate: false, crashOnMisuse: true, multipleScenes: false)

    /// The largest energy budget accepted (launches per day).
    public static let maxEnergyBudgetLaunches = 100_000

    /// The longest duration accepted, in seconds (a year).
    public static let maxSeconds: Double = 31_536_000

    /// The shortest runtime budget accepted, in seconds: one tick of the clock (a budget must
    /// not round to 0 ns; the other durations may be 0).
    public static let minBudgetSeconds = 0.000_000_001

    /// A duration as the protocol writes times: the exact decimal of the nanoseconds the plugin
    /// uses (`0.000000001`, never `1e-09`; `docs/protocol.md` section 3).
    public static func secondsJSON(_ seconds: Double) -> JSONValue {
        VirtualTime(seconds: seconds)?.json ?? .number(JSONNumber(seconds))
    }

    /// Creates a policy.
    public init(
        refreshBudgetSecs: Double, refreshEarlyExpiryChance: Double, refreshEarlyExpiryMinSecs: Double,
        refreshEarlyExpiryMaxSecs: Double, processingBudgetSecs: Double, watchdogGraceSecs: Double,
        refreshDelayMinSecs: Double, refreshDelayMaxSecs: Double, processingDelayMinSecs: Double,
        processingDelayMaxSecs: Double, energyBudgetLaunches: Int, minLaunchSpacingSecs: Double, pluginLoadsLate: Bool,
        crashOnMisuse: Bool = true, multipleScenes: Bool = false,
        maxConcurrentTasks: Int? = nil
    ) {
        self.refreshBudgetSecs = refreshBudgetSecs
        self.refreshEarlyExpiryChance = refreshEarlyExpiryChance
        self.refreshEarlyExpiryMinSecs = refreshEarlyExpiryMinSecs
        self.refreshEarlyExpiryMaxSecs = refreshEarlyExpiryMaxSecs
        self.processingBudgetSecs = processingBudgetSecs
        self.watchdogGraceSecs = watchdogGraceSecs
        self.refreshDelayMinSecs = refreshDelayMinSecs
        self.refreshDelayMaxSecs = refreshDelayMaxSecs
        self.processingDelayMinSecs = processingDelayMinSecs
        self.processingDelayMaxSecs = processingDelayMaxSecs
        self.energyBudgetLaunches = energyBudgetLaunches
        self.minLaunchSpacingSecs = minLaunchSpacingSecs
        self.pluginLoadsLate = pluginLoadsLate
        self.crashOnMisuse = crashOnMisuse
        self.multipleScenes = multipleScenes
        self.maxConcurrentTasks = maxConcurrentTasks
    }

    /// The largest `maxConcurrentTasks` accepted.
    public static let maxConcurrentTasksLimit = 100

    /// Why a policy does not hold together (a range whose minimum exceeds its maximum).
    public var inconsistency: String? {
        let ranges: [(String, Double, Double)] = [
            ("refreshEarlyExpiry", refreshEarlyExpiryMinSecs, refreshEarlyExpiryMaxSecs),
            ("refreshDelay", refreshDelayMinSecs, refreshDelayMaxSecs),
            ("processingDelay", processingDelayMinSecs, processingDelayMaxSecs),
        ]
        for (name, low, high) in ranges where low > high {
            let (lowText, highText) = (IOSPolicy.secondsJSON(low), IOSPolicy.secondsJSON(high))
            return "\(name)MinSecs (\(lowText)) must not exceed \(name)MaxSecs (\(highText))"
        }
        return nil
    }
}
