/// What the OpenRPC document says of the policy beyond its members' declarations: each
/// knob's range comes from its ``NumberRange``, which members are required from the types.
extension IOSPolicy: JSONSchemaDescribed {
    /// `IOSPolicy`.
    public static var schemaName: String? { "IOSPolicy" }
    /// The policy.
    public static var schemaDescription: String { "The knobs of the --os ios policy." }
}

extension IOSPolicy.Update: JSONSchemaDescribed {
    /// `os/setPolicy`'s params, written where used.
    public static var schemaDescription: String { "Any subset of the policy's knobs." }
    /// Each knob's meaning, for `os/setPolicy`'s param descriptors (the app-state members'
    /// come from ``IOSPolicy/AppStatesUpdate``).
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "refreshBudgetSecs": "A refresh task's usual runtime budget, seconds.",
            "refreshEarlyExpiryMinSecs": "The early refresh budget's lower end, seconds.",
            "refreshEarlyExpiryMaxSecs": "The early refresh budget's upper end, seconds.",
            "processingBudgetSecs": "A processing task's runtime budget, seconds.",
            "watchdogGraceSecs": "How long an expired task may stay uncompleted before the watchdog kills the app.",
            "refreshDelayMinSecs": "The system's delay after a refresh request's earliest begin: lower end.",
            "refreshDelayMaxSecs": "The system's delay after a refresh request's earliest begin: upper end.",
            "processingDelayMinSecs": "The system's delay after a processing request's earliest begin: lower end.",
            "processingDelayMaxSecs": "The system's delay after a processing request's earliest begin: upper end.",
            "minLaunchSpacingSecs": "Minimum time between two launches of one identifier.",
            "refreshEarlyExpiryChance": "The chance that a refresh task's budget is an early one.",
            "energyBudgetLaunches": "Background launches the daily energy budget holds.",
            "pluginLoadsLate": "The app loads the plugin after didFinishLaunching (its registrations fail).",
            "crashOnMisuse": "A BGTaskScheduler misuse ends the app's process, as on a device.",
            "multipleScenes": "The app declares multiple scenes (the plugin loads late in every process).",
            "maxConcurrentTasks": "How many tasks the system runs at once; null removes the limit.",
        ]
    }
}

extension IOSPolicy.AppStatesUpdate: JSONSchemaDescribed {
    /// Flattened into ``IOSPolicy/Update``.
    public static var schemaDescription: String { "The app-state knobs." }
    /// Each knob's meaning.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "appStates": "Model the app's states: foreground, background, suspended, notRunning.",
            "suspendDelaySecs": "With appStates: how long a background app with no task stays unsuspended.",
            "jetsamWithinSecs": "With appStates: jetsam comes within this many seconds of a suspension.",
            "jetsamChance": "With appStates: the chance that a suspension ends in jetsam.",
        ]
    }
}

extension PluginDispatchSchedule.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The next interleaving decisions." }
    /// Each member's meaning.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "choices": "The queues to run at the next decisions, in order (default none).",
            "seed": "Reseeds the PRNG that decides after them.",
            "invalidations": "What the next off-thread Timer.invalidate()s do, in order (default none: removed).",
        ]
    }
}

extension DiscoveredDocument: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "An OpenRPC document." }
    /// `info` is an object (its members are OpenRPC's, not this protocol's).
    public static var memberNotes: [String: JSONMemberNote] { ["info": JSONMemberNote(nil, ["type": "object"])] }
}
