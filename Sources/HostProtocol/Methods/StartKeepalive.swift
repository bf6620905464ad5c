/// `startKeepalive`: store the config (fields given replace stored ones) and
/// submit both task requests. Resolves with `null`.
public enum StartKeepalive: RPCMethod {
    public static let name = "startKeepalive"
    public static let kind = MethodKind.invoke
    public typealias Result = NullResult

    /// The invoke's arguments; every field is optional and an absent field keeps
    /// the value the plugin already has.
    public struct Params: JSONCodable, Hashable {
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

        /// Strict reading (the `strict` profile): any wrong-typed field throws;
        /// `iosProcessingSafetyTimeoutSecs: null` is accepted and means "no timer".
        public init(json: JSONValue) throws(JSONDecodingError) {
            let (params, mismatches) = try Params.lenient(json)
            var processing = params.iosProcessingSafetyTimeoutSecs
            var rest = mismatches
            if json["iosProcessingSafetyTimeoutSecs"]?.isNull == true {
                processing = .some(nil)
                rest.removeAll { $0.path == "iosProcessingSafetyTimeoutSecs" }
            }
            if let first = rest.first { throw first }
            self = params
            self.iosProcessingSafetyTimeoutSecs = processing
        }

        /// Lenient reading (the `seed` profile, like the seed's `args[...] as? Double`):
        /// wrong-typed fields, `null` included, are left out and listed.
        public static func lenient(_ json: JSONValue) throws(JSONDecodingError) -> (Params, [JSONDecodingError]) {
            var r = try ObjectReader(json)
            var p = Params()
            p.label = r.lenient("label", .string)
            p.foregroundServiceType = r.lenient("foregroundServiceType", .string)
            p.iosSafetyTimeoutSecs = r.lenient("iosSafetyTimeoutSecs", .number)
            p.iosProcessingSafetyTimeoutSecs = r.lenient("iosProcessingSafetyTimeoutSecs", .number).map { .some($0) }
            p.iosEarliestRefreshBeginMinutes = r.lenient("iosEarliestRefreshBeginMinutes", .number)
            p.iosEarliestProcessingBeginMinutes = r.lenient("iosEarliestProcessingBeginMinutes", .number)
            p.iosRequiresExternalPower = r.lenient("iosRequiresExternalPower", .bool)
            p.iosRequiresNetworkConnectivity = r.lenient("iosRequiresNetworkConnectivity", .bool)
            return (p, r.mismatches)
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = [:]
            if let label { o["label"] = .string(label) }
            if let foregroundServiceType { o["foregroundServiceType"] = .string(foregroundServiceType) }
            if let v = iosSafetyTimeoutSecs { o["iosSafetyTimeoutSecs"] = .number(v) }
            if let v = iosProcessingSafetyTimeoutSecs {
                o["iosProcessingSafetyTimeoutSecs"] = v.map { .number($0) } ?? .null
            }
            if let v = iosEarliestRefreshBeginMinutes { o["iosEarliestRefreshBeginMinutes"] = .number(v) }
            if let v = iosEarliestProcessingBeginMinutes { o["iosEarliestProcessingBeginMinutes"] = .number(v) }
            if let v = iosRequiresExternalPower { o["iosRequiresExternalPower"] = .bool(v) }
            if let v = iosRequiresNetworkConnectivity { o["iosRequiresNetworkConnectivity"] = .bool(v) }
            return .object(o)
        }
    }
}
