import HostProtocol

/// The plugin configuration the Rust side passes to `startKeepalive`, with the
/// reference's defaults, plus the host-side cancel-listener timeout.
///
/// ```swift
/// var config = StartKeepaliveConfig()
/// config.iosSafetyTimeoutSecs = 20
/// try await client.startKeepalive(config)
/// ```
public struct StartKeepaliveConfig: Sendable, Hashable {
    /// Android notification label (ignored on iOS).
    public var label: String?
    /// Android foreground service type (ignored on iOS).
    public var foregroundServiceType: String?
    /// Refresh safety timer, seconds (default 28).
    public var iosSafetyTimeoutSecs: Double = 28
    /// Processing safety timer, seconds; 0 or nil means none (default 0).
    public var iosProcessingSafetyTimeoutSecs: Double? = 0
    /// Refresh earliest begin, minutes from now (default 15).
    public var iosEarliestRefreshBeginMinutes: Double = 15
    /// Processing earliest begin, minutes from now (default 15).
    public var iosEarliestProcessingBeginMinutes: Double = 15
    /// Processing needs external power (default false).
    public var iosRequiresExternalPower = false
    /// Processing needs network (default false).
    public var iosRequiresNetworkConnectivity = false
    /// Host side only: how long the cancel listener waits before giving up (default 14,400 s = 4 h).
    public var iosCancelListenerTimeoutSecs: Double = 14_400

    /// The defaults.
    public init() {}

    /// The `startKeepalive` params: every plugin field, as the Rust side sends its config.
    public var params: StartKeepalive.Params {
        StartKeepalive.Params(
            label: label, foregroundServiceType: foregroundServiceType,
            iosSafetyTimeoutSecs: iosSafetyTimeoutSecs,
            iosProcessingSafetyTimeoutSecs: .some(iosProcessingSafetyTimeoutSecs),
            iosEarliestRefreshBeginMinutes: iosEarliestRefreshBeginMinutes,
            iosEarliestProcessingBeginMinutes: iosEarliestProcessingBeginMinutes,
            iosRequiresExternalPower: iosRequiresExternalPower,
            iosRequiresNetworkConnectivity: iosRequiresNetworkConnectivity)
    }
}
