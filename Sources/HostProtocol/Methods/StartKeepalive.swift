/// `startKeepalive`: store the config (fields given replace stored ones) and
/// submit both task requests. Resolves with `null`.
public enum StartKeepalive: RPCMethod {
    public static let name = "startKeepalive"
    public static let kind = MethodKind.invoke
    public typealias Result = NullResult

    /// The invoke's arguments; every field is optional and an absent field keeps
    /// the value the plugin already has.
    ///
    /// Strict reading (the `strict` profile): any wrong-typed field throws;
    /// `iosProcessingSafetyTimeoutSecs: null` is accepted and means "no timer" (its
    /// type is `Double??`). Lenient reading (the `seed` profile, like the seed's
    /// `args[...] as? Double`): wrong-typed fields, `null` included, are left out and listed.
    public struct Params: JSONCodable, Codable, Hashable {
        /// Android notification label (the iOS plugin ignores it).
        public var label: String?
        /// Android foreground service type (the iOS plugin ignores it).
        public var foregroundServiceType: String?
        /// Refresh safety timer, seconds.
        public var iosSafetyTimeoutSecs: Double?
        /// Processing safety timer: nil = absent, `.some(nil)` = explicit `null` (no timer).
        public var iosProcessingSafetyTimeoutSecs: Double??
        /// Refresh `earliestBeginDate` offset, minutes.
        public var iosEarliestRefreshBeginMinutes: Double?
        /// Processing `earliestBeginDate` offset, minutes.
        public var iosEarliestProcessingBeginMinutes: Double?
        /// Processing requests need external power.
        public var iosRequiresExternalPower: Bool?
        /// Processing requests need network.
        public var iosRequiresNetworkConnectivity: Bool?

        /// Creates params; nil fields are not sent.
        public init(
            label: String? = nil, foregroundServiceType: String? = nil, iosSafetyTimeoutSecs: Double? = nil,
            iosProcessingSafetyTimeoutSecs: Double?? = nil, iosEarliestRefreshBeginMinutes: Double? = nil,
            iosEarliestProcessingBeginMinutes: Double? = nil, iosRequiresExternalPower: Bool? = nil,
            iosRequiresNetworkConnectivity: Bool? = nil
        ) {
            self.label = label
            self.foregroundServiceType = foregroundServiceType
            self.iosSafetyTimeoutSecs = iosSafetyTimeoutSecs
            self.iosProcessingSafetyTimeoutSecs = iosProcessingSafetyTimeoutSecs
            self.iosEarliestRefreshBeginMinutes = iosEarliestRefreshBeginMinutes
            self.iosEarliestProcessingBeginMinutes = iosEarliestProcessingBeginMinutes
            self.iosRequiresExternalPower = iosRequiresExternalPower
            self.iosRequiresNetworkConnectivity = iosRequiresNetworkConnectivity
        }
    }
}
