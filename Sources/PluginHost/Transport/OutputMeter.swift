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
