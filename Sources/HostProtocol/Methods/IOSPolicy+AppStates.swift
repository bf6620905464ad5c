/// The policy members of the app's states (issue 23): each optional and written only when
/// set, so that a policy that never sets them reads and writes as before.
extension IOSPolicy {
    /// `os/setPolicy`'s app-state members, if given.
    public struct AppStatesUpdate: Hashable, Sendable {
        /// The new `appStates`, if given.
        public var appStates: Bool?
        /// The new `suspendDelaySecs`, if given.
        public var suspendDelaySecs: Double?
        /// The new `jetsamChance`, if given.
        public var jetsamChance: Double?
        /// The new `jetsamWithinSecs`, if given.
        public var jetsamWithinSecs: Double?

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

        /// Reads the members from `os/setPolicy`'s params: `appStates` a boolean,
        /// `suspendDelaySecs` and `jetsamWithinSecs` seconds from 0 to a year, `jetsamChance`
        /// from 0 to 1.
        init(_ r: ObjectReader) throws(JSONDecodingError) {
            appStates = try r.optional("appStates", .bool)
            suspendDelaySecs = try Self.seconds("suspendDelaySecs", in: r)
            jetsamWithinSecs = try Self.seconds("jetsamWithinSecs", in: r)
            jetsamChance = try r.optional("jetsamChance", .number)
            if let p = jetsamChance, !(0...1).contains(p) {
                throw JSONDecodingError(
                    path: "jetsamChance", expected: "a number from 0 to 1", found: "\(JSONNumber(p))")
            }
        }

        /// A duration member: seconds from 0 to a year, if given.
        private static func seconds(_ key: String, in r: ObjectReader) throws(JSONDecodingError) -> Double? {
            guard let v = try r.optional(key, .number) else { return nil }
            guard (0...IOSPolicy.maxSeconds).contains(v) else {
                throw JSONDecodingError(
                    path: key,
                    expected: "a number of seconds from 0 to \(IOSPolicy.secondsJSON(IOSPolicy.maxSeconds))",
                    found: "\(JSONNumber(v))")
            }
            return v
        }

        /// Writes the members given.
        func write(into o: inout [String: JSONValue]) {
            if let v = appStates { o["appStates"] = .bool(v) }
            if let v = suspendDelaySecs { o["suspendDelaySecs"] = IOSPolicy.secondsJSON(v) }
            if let v = jetsamChance { o["jetsamChance"] = .number(v) }
            if let v = jetsamWithinSecs { o["jetsamWithinSecs"] = IOSPolicy.secondsJSON(v) }
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

    /// Writes the members that are set.
    func writeAppStates(into o: inout [String: JSONValue]) {
        AppStatesUpdate(
            appStates: appStates, suspendDelaySecs: suspendDelaySecs, jetsamChance: jetsamChance,
            jetsamWithinSecs: jetsamWithinSecs
        ).write(into: &o)
    }
}
