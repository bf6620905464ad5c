/// How much a host holds from a plugin, and how long it waits for one: the bounds
/// that let a host survive a plugin that floods its output, writes huge lines or
/// falls silent (`docs/reliability.md`, "Bounds").
///
/// A plugin that keeps to the contract stays inside every bound: its largest frame is
/// a batch reply the plugin caps at 4 MiB, and the most it writes for one request is an
/// `os/advanceTime`: a few thousand events under `--os manual` (1,000 due timers and
/// launches at most), up to 200,000 under `--os ios` with zero-length budgets and
/// delays (a separate, larger bound after such a request). A simulation's timeline
/// (200,000 entries) holds far more than the days the demo and the fuzzers play.
/// Past a bound the plugin is reported as flooding
/// (``HostError/Code/flooding``, with the figures) and stopped.
///
/// ```swift
/// var limits = PeerLimits.default
/// limits.maxUnpromptedFrames = 10_000       // a host that never advances time far
/// let connection = try PluginConnection(plugin: options, options: .init(limits: limits))
/// ```
public struct PeerLimits: Sendable, Hashable {
    /// The largest frame accepted from the plugin (16 MiB); a longer one is a protocol
    /// error, never held whole.
    public var maxFrameBytes: Int
    /// The most frames the plugin may write without the host writing anything in
    /// between (100,000).
    public var maxUnpromptedFrames: Int
    /// The most bytes the plugin may write without the host writing anything in
    /// between (64 MiB).
    public var maxUnpromptedBytes: Int
    /// The same bound after a request that moves the plugin's clock (`os/advanceTime`),
    /// which may perform up to the plugin's hard bound of 200,000 autonomous events under
    /// `--os ios` (about 700,000 frames and 100 MB): 1,500,000 frames.
    public var maxUnpromptedFramesAfterAdvance: Int
    /// The bytes of that bound: 256 MiB.
    public var maxUnpromptedBytesAfterAdvance: Int
    /// The most frames one reader keeps for later: events not yet taken from a
    /// connection, a timeline, one conformance check's output, one fuzz script's
    /// replies (200,000).
    public var maxHeldFrames: Int
    /// The most bytes of frames one reader keeps for later (256 MiB).
    public var maxHeldBytes: Int
    /// The most bytes of the plugin's stderr a tool keeps for its report (1 MiB); what
    /// it forwards as it comes is not held. Lines past it are counted, not kept.
    public var maxStderrBytes: Int

    /// Creates limits; every bound defaults to the documented value.
    public init(
        maxFrameBytes: Int = 16 << 20, maxUnpromptedFrames: Int = 100_000, maxUnpromptedBytes: Int = 64 << 20,
        maxUnpromptedFramesAfterAdvance: Int = 1_500_000, maxUnpromptedBytesAfterAdvance: Int = 256 << 20,
        maxHeldFrames: Int = 200_000, maxHeldBytes: Int = 256 << 20, maxStderrBytes: Int = 1 << 20
    ) {
        self.maxFrameBytes = maxFrameBytes
        self.maxUnpromptedFrames = maxUnpromptedFrames
        self.maxUnpromptedBytes = maxUnpromptedBytes
        self.maxUnpromptedFramesAfterAdvance = maxUnpromptedFramesAfterAdvance
        self.maxUnpromptedBytesAfterAdvance = maxUnpromptedBytesAfterAdvance
        self.maxHeldFrames = maxHeldFrames
        self.maxHeldBytes = maxHeldBytes
        self.maxStderrBytes = maxStderrBytes
    }

    /// The documented defaults.
    public static let `default` = PeerLimits()
}
