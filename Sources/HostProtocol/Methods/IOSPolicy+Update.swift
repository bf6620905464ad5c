extension IOSPolicy {
    /// `os/setPolicy`'s params: any subset of the policy's members, each checked against its
    /// range as it is read, in this order (so that a request with several wrong members is
    /// told about the first): the durations (budgets from one tick, 0.000000001, the others
    /// from 0, all to a year, 31536000), the chance (0 to 1), the energy budget (an integer
    /// from 1 to 100,000), the booleans, `maxConcurrentTasks` (an integer from 1 to 100, or
    /// null: no limit), then the app-state members, then the usage members.
    public struct Update: JSONCodable, Codable, Hashable {
        /// The new `refreshBudgetSecs`, if given.
        @InRangeIfPresent<BudgetSeconds> public var refreshBudgetSecs: Double?
        /// The new `refreshEarlyExpiryMinSecs`, if given.
        @InRangeIfPresent<Seconds> public var refreshEarlyExpiryMinSecs: Double?
        /// The new `refreshEarlyExpiryMaxSecs`, if given.
        @InRangeIfPresent<Seconds> public var refreshEarlyExpiryMaxSecs: Double?
        /// The new `processingBudgetSecs`, if given.
        @InRangeIfPresent<BudgetSeconds> public var processingBudgetSecs: Double?
        /// The new `watchdogGraceSecs`, if given.
        @InRangeIfPresent<Seconds> public var watchdogGraceSecs: Double?
        /// The new `refreshDelayMinSecs`, if given.
        @InRangeIfPresent<Seconds> public var refreshDelayMinSecs: Double?
        /// The new `refreshDelayMaxSecs`, if given.
        @InRangeIfPresent<Seconds> public var refreshDelayMaxSecs: Double?
        /// The new `processingDelayMinSecs`, if given.
        @InRangeIfPresent<Seconds> public var processingDelayMinSecs: Double?
        /// The new `processingDelayMaxSecs`, if given.
        @InRangeIfPresent<Seconds> public var processingDelayMaxSecs: Double?
        /// The new `minLaunchSpacingSecs`, if given.
        @InRangeIfPresent<Seconds> public var minLaunchSpacingSecs: Double?
        /// The new `refreshEarlyExpiryChance`, if given.
        @InRangeIfPresent<Chance> public var refreshEarlyExpiryChance: Double?
        /// The new `energyBudgetLaunches`, if given.
        @InRangeIfPresent<LaunchesPerDay> public var energyBudgetLaunches: Int?
        /// The new `pluginLoadsLate`, if given.
        public var pluginLoadsLate: Bool?
        /// The new `crashOnMisuse`, if given.
        public var crashOnMisuse: Bool?
        /// The new `multipleScenes`, if given.
        public var multipleScenes: Bool?
        /// The new `maxConcurrentTasks`, if given: `.some(nil)` (JSON `null`) removes the limit.
        @InRangeOrNull<ConcurrentTasks> public var maxConcurrentTasks: Int??
        /// The new app-state members (`appStates`, `suspendDelaySecs`, ...), if given: members
        /// of this object on the wire.
        @Flattened public var appStates: AppStatesUpdate
        /// The new usage members (`usageScheduling`, `usageHalfLifeSecs`, ...), if given:
        /// members of this object on the wire.
        @Flattened public var usage: UsageUpdate

        /// Creates an update.
        public init(
            refreshBudgetSecs: Double? = nil, refreshEarlyExpiryMinSecs: Double? = nil,
            refreshEarlyExpiryMaxSecs: Double? = nil, processingBudgetSecs: Double? = nil,
            watchdogGraceSecs: Double? = nil, refreshDelayMinSecs: Double? = nil, refreshDelayMaxSecs: Double? = nil,
            processingDelayMinSecs: Double? = nil, processingDelayMaxSecs: Double? = nil,
            minLaunchSpacingSecs: Double? = nil, refreshEarlyExpiryChance: Double? = nil,
            energyBudgetLaunches: Int? = nil, pluginLoadsLate: Bool? = nil, crashOnMisuse: Bool? = nil,
            multipleScenes: Bool? = nil, maxConcurrentTasks: Int?? = nil, appStates: AppStatesUpdate = .init(),
            usage: UsageUpdate = .init()
        ) {
            self.refreshBudgetSecs = refreshBudgetSecs
            self.refreshEarlyExpiryMinSecs = refreshEarlyExpiryMinSecs
            self.refreshEarlyExpiryMaxSecs = refreshEarlyExpiryMaxSecs
            self.processingBudgetSecs = processingBudgetSecs
            self.watchdogGraceSecs = watchdogGraceSecs
            self.refreshDelayMinSecs = refreshDelayMinSecs
            self.refreshDelayMaxSecs = refreshDelayMaxSecs
            self.processingDelayMinSecs = processingDelayMinSecs
            self.processingDelayMaxSecs = processingDelayMaxSecs
            self.minLaunchSpacingSecs = minLaunchSpacingSecs
            self.refreshEarlyExpiryChance = refreshEarlyExpiryChance
            self.energyBudgetLaunches = energyBudgetLaunches
            self.pluginLoadsLate = pluginLoadsLate
            self.crashOnMisuse = crashOnMisuse
            self.multipleScenes = multipleScenes
            self.maxConcurrentTasks = maxConcurrentTasks
            self.appStates = appStates
            self.usage = usage
        }
    }

    /// The duration members: the update's and the policy's, paired.
    private static let durations:
        [(any KeyPath<Update, Double?> & Sendable, any WritableKeyPath<IOSPolicy, Double> & Sendable)] = [
            (\.refreshBudgetSecs, \.refreshBudgetSecs), (\.refreshEarlyExpiryMinSecs, \.refreshEarlyExpiryMinSecs),
            (\.refreshEarlyExpiryMaxSecs, \.refreshEarlyExpiryMaxSecs),
            (\.processingBudgetSecs, \.processingBudgetSecs),
            (\.watchdogGraceSecs, \.watchdogGraceSecs), (\.refreshDelayMinSecs, \.refreshDelayMinSecs),
            (\.refreshDelayMaxSecs, \.refreshDelayMaxSecs), (\.processingDelayMinSecs, \.processingDelayMinSecs),
            (\.processingDelayMaxSecs, \.processingDelayMaxSecs), (\.minLaunchSpacingSecs, \.minLaunchSpacingSecs),
        ]

    /// This policy with an update's members applied.
    public func applying(_ update: Update) -> IOSPolicy {
        var p = self
        for (given, member) in IOSPolicy.durations { if let v = update[keyPath: given] { p[keyPath: member] = v } }
        if let v = update.refreshEarlyExpiryChance { p.refreshEarlyExpiryChance = v }
        if let v = update.energyBudgetLaunches { p.energyBudgetLaunches = v }
        if let v = update.pluginLoadsLate { p.pluginLoadsLate = v }
        if let v = update.crashOnMisuse { p.crashOnMisuse = v }
        if let v = update.multipleScenes { p.multipleScenes = v }
        if let v = update.maxConcurrentTasks { p.maxConcurrentTasks = v }
        update.appStates.apply(to: &p)
        update.usage.apply(to: &p)
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
