import HostProtocol

/// What the Rust side passes to `startKeepalive`: the start config (`label`,
/// `foregroundServiceType`) and the plugin config's iOS fields, with the Rust
/// side's defaults, plus the host-side cancel-listener timeout.
///
/// ```swift
/// var config = StartKeepaliveConfig()
/// config.iosSafetyTimeoutSecs = 20
/// try await client.startKeepalive(config)
/// ```
// Departs: the iOS fields come with each start, not from the plugin config read once at setup.
public struct StartKeepaliveConfig: Sendable, Hashable {
    /// The Android notification's text (default "Service running"; sent on iOS too).
    public var label = "Service running"
    /// The Android foreground service type (default `dataSync`; sent on iOS too). The
    /// Rust side refuses a start whose type is not in ``ForegroundServiceType/allowed``.
    public var foregroundServiceType = "dataSync"
    /// Refresh safety timer, seconds (default 28).
    public var iosSafetyTimeoutSecs: Double = 28
    /// Processing safety timer, seconds; 0 or less means none and is left out of the
    /// params (default 0).
    public var iosProcessingSafetyTimeoutSecs: Double = 0
    /// Refresh earliest begin, minutes from now (default 15).
    public var iosEarliestRefreshBeginMinutes: Double = 15
    /// Processing earliest begin, minutes from now (default 15).
    public var iosEarliestProcessingBeginMinutes: Double = 15
    /// Processing needs external power (default false).
    public var iosRequiresExternalPower = false
    /// Processing needs network (default false).
    public var iosRequiresNetworkConnectivity = false
    /// Host side only: how long the cancel listener waits before giving up, in whole
    /// seconds as the Rust config's `u64` (default 14,400 s = 4 h).
    public var iosCancelListenerTimeoutSecs: UInt64 = 14_400

    /// The defaults.
    public init() {}

    /// The `startKeepalive` params as the Rust side writes them: `label` and
    /// `foregroundServiceType` always, every number as an `f64` (serde writes a whole
    /// value with its `.0`), and `iosProcessingSafetyTimeoutSecs` only when it is
    /// above 0 (the Rust side passes `None` otherwise, and a `None` field is left out).
    public var wireParams: JSONValue {
        var o: [String: JSONValue] = [
            "label": .string(label), "foregroundServiceType": .string(foregroundServiceType),
            "iosSafetyTimeoutSecs": Self.float(iosSafetyTimeoutSecs),
            "iosEarliestRefreshBeginMinutes": Self.float(iosEarliestRefreshBeginMinutes),
            "iosEarliestProcessingBeginMinutes": Self.float(iosEarliestProcessingBeginMinutes),
            "iosRequiresExternalPower": .bool(iosRequiresExternalPower),
            "iosRequiresNetworkConnectivity": .bool(iosRequiresNetworkConnectivity),
        ]
        if iosProcessingSafetyTimeoutSecs > 0 {
            o["iosProcessingSafetyTimeoutSecs"] = Self.float(iosProcessingSafetyTimeoutSecs)
        }
        return .object(o)
    }

    /// An `f64` as serde_json writes it: a whole value keeps a `.0` (`28.0`).
    static func float(_ value: Double) -> JSONValue {
        let plain = JSONNumber(value)
        guard value.isFinite, !plain.literal.contains(where: { ".eE".contains($0) }),
            let literal = JSONNumber(literal: plain.literal + ".0")
        else { return .number(plain) }
        return .number(literal)
    }
}

/// Android's foreground service types, which the Rust side checks a start's
/// `foregroundServiceType` against before it calls the plugin (on iOS too).
///
/// The list is the one Android 14 documents for `android:foregroundServiceType`
/// (developer.android.com, "Foreground service types"), as the Rust side spells
/// them in `StartConfig`.
public enum ForegroundServiceType {
    /// The accepted values.
    public static let allowed: [String] = [
        "camera", "connectedDevice", "dataSync", "health", "location", "mediaPlayback", "mediaProcessing",
        "mediaProjection", "microphone", "phoneCall", "remoteMessaging", "shortService", "specialUse",
        "systemExempted",
    ]

    /// Whether `type` is accepted (exact, case-sensitive match).
    public static func isAllowed(_ type: String) -> Bool { allowed.contains(type) }
}
