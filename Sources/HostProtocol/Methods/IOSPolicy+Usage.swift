/// The policy members of scheduling driven by use (issue 23): each optional and written only
/// when set, so that a policy that never sets them reads and writes as before.
extension IOSPolicy {
    /// `os/setPolicy`'s usage members, if given (flattened into ``Update``), read in this
    /// order: `usageScheduling` a boolean, then three durations from 0 to a year.
    public struct UsageUpdate: Codable, Hashable, Sendable {
        /// The new `usageScheduling`, if given.
        public var usageScheduling: Bool?
        /// The new `usageHalfLifeSecs`, if given.
        @InRangeIfPresent<Seconds> public var usageHalfLifeSecs: Double?
        /// The new `usageWindowSecs`, if given.
        @InRangeIfPresent<Seconds> public var usageWindowSecs: Double?
        /// The new `usageRefreshIntervalSecs`, if given.
        @InRangeIfPresent<Seconds> public var usageRefreshIntervalSecs: Double?
        /// The new `usageProcessingIntervalSecs`, if given.
        @InRangeIfPresent<Seconds> public var usageProcessingIntervalSecs: Double?

        /// Creates an update.
        public init(
            usageScheduling: Bool? = nil, usageHalfLifeSecs: Double? = nil, usageWindowSecs: Double? = nil,
            usageRefreshIntervalSecs: Double? = nil, usageProcessingIntervalSecs: Double? = nil
        ) {
            self.usageScheduling = usageScheduling
            self.usageHalfLifeSecs = usageHalfLifeSecs
            self.usageWindowSecs = usageWindowSecs
            self.usageRefreshIntervalSecs = usageRefreshIntervalSecs
            self.usageProcessingIntervalSecs = usageProcessingIntervalSecs
        }

        /// Applies the members given.
        func apply(to p: inout IOSPolicy) {
            if let v = usageScheduling { p.usageScheduling = v }
            if let v = usageHalfLifeSecs { p.usageHalfLifeSecs = v }
            if let v = usageWindowSecs { p.usageWindowSecs = v }
            if let v = usageRefreshIntervalSecs { p.usageRefreshIntervalSecs = v }
            if let v = usageProcessingIntervalSecs { p.usageProcessingIntervalSecs = v }
        }
    }

    /// Whether launches depend on use (`usageScheduling` is true).
    public var schedulesByUsage: Bool { usageScheduling == true }

    /// The usage half-life in effect (`usageHalfLifeSecs`, else a day).
    public var effectiveUsageHalfLifeSecs: Double { usageHalfLifeSecs ?? 86_400 }

    /// The usage window in effect (`usageWindowSecs`, else a week).
    public var effectiveUsageWindowSecs: Double { usageWindowSecs ?? 604_800 }

    /// The refresh interval at full use in effect (`usageRefreshIntervalSecs`, else 6 hours).
    public var effectiveUsageRefreshIntervalSecs: Double { usageRefreshIntervalSecs ?? 21_600 }

    /// The processing interval at full use in effect (`usageProcessingIntervalSecs`, else a day).
    public var effectiveUsageProcessingIntervalSecs: Double { usageProcessingIntervalSecs ?? 86_400 }
}

extension IOSPolicy.UsageUpdate: JSONSchemaDescribed {
    /// Flattened into ``IOSPolicy/Update``.
    public static var schemaDescription: String { "The usage knobs." }
    /// Each knob's meaning.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "usageScheduling": "Launches depend on app usage: a score that decays, nothing after a week unused.",
            "usageHalfLifeSecs": "With usageScheduling: the usage score halves every this many seconds unused.",
            "usageWindowSecs": "With usageScheduling: no discretionary launch for an app unused this long.",
            "usageRefreshIntervalSecs": "With usageScheduling: refresh launches at least this long / score apart.",
            "usageProcessingIntervalSecs":
                "With usageScheduling: processing launches at least this long / score apart.",
        ]
    }
}
