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

/// Frames and bytes counted against a bound: what a reader holds, or what a plugin
/// has written since the host last wrote. A value type; its owner keeps it where its
/// other state is (under its lock).
///
/// ```swift
/// var held = OutputMeter(frames: limits.maxHeldFrames, bytes: limits.maxHeldBytes)
/// if let over = held.add(bytes: frame.count) { throw HostError.flooding("\(over) held by the timeline") }
/// ```
public struct OutputMeter: Sendable, Hashable {
    /// The bound on frames.
    public let frameLimit: Int
    /// The bound on bytes.
    public let byteLimit: Int
    /// Frames counted so far.
    public private(set) var frames = 0
    /// Bytes counted so far.
    public private(set) var bytes = 0

    /// A meter with these bounds, at zero.
    public init(frames: Int, bytes: Int) {
        frameLimit = frames
        byteLimit = bytes
    }

    /// Counts one frame of `bytes`; returns the figures in words (``summary``) when
    /// that passes a bound, nil while within both.
    public mutating func add(bytes n: Int) -> String? {
        frames += 1
        bytes += n
        return frames > frameLimit || bytes > byteLimit ? summary : nil
    }

    /// Takes back `frames` frames of `bytes` in all (a reader took them).
    public mutating func remove(frames n: Int = 1, bytes size: Int) {
        frames -= n
        bytes -= size
    }

    /// Back to zero.
    public mutating func reset() {
        frames = 0
        bytes = 0
    }

    /// `"200,001 frames, 12.5 MiB (limit 200,000 frames or 256 MiB)"`.
    public var summary: String {
        "\(Self.count(frames)) frames, \(Self.size(bytes)) (limit \(Self.count(frameLimit)) frames or "
            + "\(Self.size(byteLimit)))"
    }

    /// `1234567` as `"1,234,567"`.
    public static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// A byte count in words: `"512 bytes"`, `"64 KiB"`, `"12.5 MiB"`.
    public static func size(_ n: Int) -> String {
        if n < 1024 { return "\(n) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(n) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let text = value == value.rounded() ? String(Int(value)) : String(format1: value)
        return "\(text) \(units[unit])"
    }
}

extension String {
    /// `x` with one decimal.
    fileprivate init(format1 x: Double) {
        let tenths = Int((x * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
