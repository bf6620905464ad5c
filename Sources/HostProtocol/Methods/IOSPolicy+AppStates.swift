/// The policy members of the app's states (issue 23): each optional and written only when
/// set, so that a policy that never sets them reads and writes as before.
extension IOSPolicy {
    /// `os/setPolicy`'s app-state members, if given (flattened into ``Update``): `appStates`
    /// a boolean, `suspendDelaySecs` and `jetsamWithinSecs` seconds from 0 to a year,
    /// `jetsamChance` from 0 to 1, read in that order.
    public struct AppStatesUpdate: Codable, Hashable, Sendable {
        /// The new `appStates`, if given.
        public var appStates: Bool?
        /// The new `suspendDelaySecs`, if given.
        @InRangeIfPresent<Seconds> public var suspendDelaySecs: Double?
        /// The new `jetsamWithinSecs`, if given.
        @InRangeIfPresent<Seconds> public var jetsamWithinSecs: Double?
        /// The new `jetsamChance`, if given.
        @InRangeIfPresent<Chance> public var jetsamChance: Double?

        /// Creates an update.
        public init(
            appStates: Bool? = nil, suspendDelaySecs: Double? = nil, jetsamChance: Double? = nil,
            jetsamWithinSecs: Double? = nil
        ) {
            self.appStates = appStates
            self.suspendDelaySecs = suspendDelaySecs
            self.jetsamChance = jetsamChance
            self.jetsamWithinSecs = jetsamWithinSecs
        }

        /// Applies the members given.
        func apply(to p: inout IOSPolicy) {
            if let v = appStates { p.appStates = v }
            if let v = suspendDelaySecs { p.suspendDelaySecs = v }
            if let v = jetsamChance { p.jetsamChance = v }
            if let v = jetsamWithinSecs { p.jetsamWithinSecs = v }
        }
    }

    /// The jetsam chance in effect (`jetsamChance`, else 0.1).
    public var effectiveJetsamChance: Double { jetsamChance ?? 0.1 }

    /// The jetsam window in effect (`jetsamWithinSecs`, else 3600).
    public var effectiveJetsamWithinSecs: Double { jetsamWithinSecs ?? 3600 }

    /// Whether the app's states are modelled (`appStates` is true).
    public var modelsAppStates: Bool { appStates == true }
}
