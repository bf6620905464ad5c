/// The knobs of the `--os ios` policy (`os/setPolicy`, `plugin/state`'s `ios.policy`).
///
/// Times are seconds. `docs/protocol.md` ("--os ios") says why each default is what it is.
public struct IOSPolicy: JSONHandWritten, Hashable {
    /// A refresh task's usual runtime budget (default 30, Apple's "about 30 seconds").
    public var refreshBudgetSecs: Double
    /// The chance that a refresh task's budget is an early one instead (default 0.2).
    public var refreshEarlyExpiryChance: Double
    /// The early budget's range, drawn uniformly per launch (default 2 to 5: field reports).
    public var refreshEarlyExpiryMinSecs: Double
    /// The early budget's upper end, seconds (default 5).
    public var refreshEarlyExpiryMaxSecs: Double
    /// A processing task's runtime budget (default 600: "minutes").
    public var processingBudgetSecs: Double
    /// How long after its expiration handler ran a task may stay uncompleted before
    /// the watchdog kills the app (default 5).
    public var watchdogGraceSecs: Double
    /// The system's delay after `earliestBeginDate`, drawn uniformly per submission
    /// (defaults: refresh 0 to 1800, processing 0 to 3600).
    public var refreshDelayMinSecs: Double
    /// The refresh delay's upper end, seconds (default 1800).
    public var refreshDelayMaxSecs: Double
    /// The processing delay's lower end, seconds (default 0).
    public var processingDelayMinSecs: Double
    /// The processing delay's upper end, seconds (default 3600).
    public var processingDelayMaxSecs: Double
    /// Background launches the daily energy budget holds; it refills evenly over 24 h
    /// and each launch spends one (default 12).
    public var energyBudgetLaunches: Int
    /// Minimum time between two launches of one identifier (default 600).
    public var minLaunchSpacingSecs: Double
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
    public var maxConcurrentTasks: Int?
    /// The app's states (issue 23; default false, the model before it: a process is only
    /// running or not). True: `foreground`, `background`, `suspended` and `notRunning`, with
    /// their rules (`docs/rules.md`, "App states"). Written only when set.
    public var appStates: Bool?
    /// With `appStates`: how long an app in the background with no task running stays
    /// unsuspended (default 5: Apple, "Extending your app's background execution time":
    /// `applicationDidEnterBackground` has about five seconds, and shortly after it returns the
    /// system suspends the app). Written only when set.
    public var suspendDelaySecs: Double?
    /// With `appStates`: the chance that a suspension ends in jetsam (the system terminates the
    /// suspended app to reclaim memory), drawn at each suspension (default 0.1). Written only when set.
    public var jetsamChance: Double?
    /// With `appStates`: the jetsam comes at a time drawn uniformly, to the millisecond, from the
    /// suspension to this many seconds after it (default 3600). Written only when set.
    public var jetsamWithinSecs: Double?

    /// The suspension delay in effect (`suspendDelaySecs`, else 5).
    public var effectiveSuspendDelaySecs: Double { suspendDelaySecs ?? IOSPolicy.defaultSuspendDelaySecs }

    /// `suspendDelaySecs`' default.
    public static let defaultSuspendDelaySecs: Double = 5

    /// The defaults.
    public static let defaults = IOSPolicy(
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

    /// Whether the duration member `key` is a runtime budget (`*BudgetSecs`: at least one tick).
    public static func isBudget(_ key: String) -> Bool { key.hasSuffix("BudgetSecs") }

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

    /// For ``JSONShape``: the defaults.
    public static var shapeExample: IOSPolicy { defaults }

    /// The duration members, by wire name (shared by reading, writing and checking).
    static let secondsKeys: [(String, any WritableKeyPath<IOSPolicy, Double> & Sendable)] = [
        ("refreshBudgetSecs", \.refreshBudgetSecs), ("refreshEarlyExpiryMinSecs", \.refreshEarlyExpiryMinSecs),
        ("refreshEarlyExpiryMaxSecs", \.refreshEarlyExpiryMaxSecs), ("processingBudgetSecs", \.processingBudgetSecs),
        ("watchdogGraceSecs", \.watchdogGraceSecs), ("refreshDelayMinSecs", \.refreshDelayMinSecs),
        ("refreshDelayMaxSecs", \.refreshDelayMaxSecs), ("processingDelayMinSecs", \.processingDelayMinSecs),
        ("processingDelayMaxSecs", \.processingDelayMaxSecs), ("minLaunchSpacingSecs", \.minLaunchSpacingSecs),
    ]

    public init(json: JSONValue) throws(JSONDecodingError) {
        self = try IOSPolicy.defaults.applying(Update(json: json))
        let r = try ObjectReader(json)
        for (key, _) in IOSPolicy.secondsKeys { _ = try r.require(key, .number) }
        _ = try r.require("refreshEarlyExpiryChance", .number)
        _ = try r.require("energyBudgetLaunches", .integer)
        _ = try r.require("pluginLoadsLate", .bool)
        _ = try r.require("crashOnMisuse", .bool)
        _ = try r.require("multipleScenes", .bool)
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "refreshEarlyExpiryChance": .number(refreshEarlyExpiryChance),
            "energyBudgetLaunches": .number(energyBudgetLaunches), "pluginLoadsLate": .bool(pluginLoadsLate),
            "crashOnMisuse": .bool(crashOnMisuse), "multipleScenes": .bool(multipleScenes),
        ]
        for (key, path) in IOSPolicy.secondsKeys { o[key] = IOSPolicy.secondsJSON(self[keyPath: path]) }
        if let v = maxConcurrentTasks { o["maxConcurrentTasks"] = .number(v) }
        writeAppStates(into: &o)
        return .object(JSONObject(o))
    }

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

    /// `os/setPolicy`'s params: any subset of the policy's members.
    public struct Update: JSONHandWritten, Hashable {
        /// The duration members given, by wire name.
        public var seconds: [String: Double] = [:]
        /// The new `refreshEarlyExpiryChance`, if given.
        public var refreshEarlyExpiryChance: Double?
        /// The new `energyBudgetLaunches`, if given.
        public var energyBudgetLaunches: Int?
        /// The new `pluginLoadsLate`, if given.
        public var pluginLoadsLate: Bool?
        /// The new `crashOnMisuse`, if given.
        public var crashOnMisuse: Bool?
        /// The new `multipleScenes`, if given.
        public var multipleScenes: Bool?
        /// The new `maxConcurrentTasks`, if given: `.some(nil)` (JSON `null`) removes the limit.
        public var maxConcurrentTasks: Int??
        /// The new app-state members (`appStates`, `suspendDelaySecs`, ...), if given.
        public var appStates = AppStatesUpdate()

        /// For ``JSONShape``: no member.
        public static var shapeExample: Update { Update() }

        /// Creates an update.
        public init(
            seconds: [String: Double] = [:], refreshEarlyExpiryChance: Double? = nil, energyBudgetLaunches: Int? = nil,
            pluginLoadsLate: Bool? = nil, crashOnMisuse: Bool? = nil, multipleScenes: Bool? = nil,
            maxConcurrentTasks: Int?? = nil
        ) {
            self.seconds = seconds
            self.refreshEarlyExpiryChance = refreshEarlyExpiryChance
            self.energyBudgetLaunches = energyBudgetLaunches
            self.pluginLoadsLate = pluginLoadsLate
            self.crashOnMisuse = crashOnMisuse
            self.multipleScenes = multipleScenes
            self.maxConcurrentTasks = maxConcurrentTasks
        }

        /// Durations are finite numbers of seconds from 0 (budgets: from one tick,
        /// 0.000000001) to a year (31536000); the chance is from 0 to 1; the energy budget
        /// an integer from 1 to 100,000; `maxConcurrentTasks` an integer from 1 to 100, or null
        /// (no limit).
        public init(json: JSONValue) throws(JSONDecodingError) {
            let r = try ObjectReader(json)
            for (key, _) in IOSPolicy.secondsKeys {
                guard let v = try r.optional(key, .number) else { continue }
                let low = IOSPolicy.isBudget(key) ? IOSPolicy.minBudgetSeconds : 0
                guard v >= low, v <= IOSPolicy.maxSeconds else {
                    throw JSONDecodingError(
                        path: key,
                        expected: "a number of seconds from \(IOSPolicy.secondsJSON(low)) to "
                            + "\(IOSPolicy.secondsJSON(IOSPolicy.maxSeconds))",
                        found: "\(JSONNumber(v))")
                }
                seconds[key] = v
            }
            refreshEarlyExpiryChance = try r.optional("refreshEarlyExpiryChance", .number)
            if let p = refreshEarlyExpiryChance, !(0...1).contains(p) {
                throw JSONDecodingError(
                    path: "refreshEarlyExpiryChance", expected: "a number from 0 to 1", found: "\(JSONNumber(p))")
            }
            if let value = r.members["energyBudgetLaunches"] {
                // Any number that is not an integer in range (2.5, 0, 1e20) names the range.
                guard let n = value.int64Value, n >= 1, n <= Int64(IOSPolicy.maxEnergyBudgetLaunches) else {
                    throw JSONDecodingError(
                        path: "energyBudgetLaunches", expected: "an integer from 1 to 100000",
                        found: value.literalOrTypeName)
                }
                energyBudgetLaunches = Int(n)
            }
            pluginLoadsLate = try r.optional("pluginLoadsLate", .bool)
            crashOnMisuse = try r.optional("crashOnMisuse", .bool)
            multipleScenes = try r.optional("multipleScenes", .bool)
            if let value = r.members["maxConcurrentTasks"] {
                if value == .null {
                    maxConcurrentTasks = .some(nil)
                } else {
                    guard let n = value.int64Value, n >= 1, n <= Int64(IOSPolicy.maxConcurrentTasksLimit) else {
                        throw JSONDecodingError(
                            path: "maxConcurrentTasks", expected: "an integer from 1 to 100, or null (no limit)",
                            found: value.literalOrTypeName)
                    }
                    maxConcurrentTasks = .some(Int(n))
                }
            }
            appStates = try AppStatesUpdate(r)
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = seconds.mapValues(IOSPolicy.secondsJSON)
            if let v = refreshEarlyExpiryChance { o["refreshEarlyExpiryChance"] = .number(v) }
            if let v = energyBudgetLaunches { o["energyBudgetLaunches"] = .number(v) }
            if let v = pluginLoadsLate { o["pluginLoadsLate"] = .bool(v) }
            if let v = crashOnMisuse { o["crashOnMisuse"] = .bool(v) }
            if let v = multipleScenes { o["multipleScenes"] = .bool(v) }
            if let v = maxConcurrentTasks { o["maxConcurrentTasks"] = v.map { .number($0) } ?? .null }
            appStates.write(into: &o)
            return .object(JSONObject(o))
        }
    }

    /// This policy with an update's members applied.
    public func applying(_ update: Update) -> IOSPolicy {
        var p = self
        for (key, path) in IOSPolicy.secondsKeys { if let v = update.seconds[key] { p[keyPath: path] = v } }
        if let v = update.refreshEarlyExpiryChance { p.refreshEarlyExpiryChance = v }
        if let v = update.energyBudgetLaunches { p.energyBudgetLaunches = v }
        if let v = update.pluginLoadsLate { p.pluginLoadsLate = v }
        if let v = update.crashOnMisuse { p.crashOnMisuse = v }
        if let v = update.multipleScenes { p.multipleScenes = v }
        if let v = update.maxConcurrentTasks { p.maxConcurrentTasks = v }
        update.appStates.apply(to: &p)
        return p
    }
}

/// `os/setPolicy` (`--os ios` only): changes any of the policy's knobs; returns all
/// of them. `-32602` for a wrong type, a value out of range, or a range whose
/// minimum would exceed its maximum (nothing changes). New values apply to what is
/// drawn next (budgets at the next launch, delays at the next submission).
public enum OSSetPolicy: RPCMethod {
    public static let name = "os/setPolicy"
    public static let kind = MethodKind.osControl
    public typealias Params = IOSPolicy.Update
    public typealias Result = IOSPolicy
}

extension JSONValue {
    /// A number's literal (`2.5`, `1e20`), or the type's name for anything else: what an
    /// error message says was found when a number was out of range or not an integer.
    var literalOrTypeName: String {
        if case .number(let n) = self { return n.literal }
        return typeName
    }
}
