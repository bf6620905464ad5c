/// A point on the plugin's clock, in whole nanoseconds since the clock started.
///
/// The protocol carries times as JSON numbers of seconds. Internally they are
/// integer nanoseconds ("ticks"), so that deadlines compare exactly and adding
/// a 28-second timeout to time 0 lands on 28 s, not on 27.999999 s. Seconds
/// read from JSON are rounded to the nearest nanosecond; times are written back
/// as exact decimals with trailing zeros removed (`28`, `28.5`, `0.0001`).
///
/// ```swift
/// let t = VirtualTime(seconds: 28)!      // 28_000_000_000 ns
/// t.json                                 // 28
/// (t + .nanoseconds(1)).json             // 28.000000001
/// ```
public struct VirtualTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin (may be negative for dates in the past).
    public var nanoseconds: Int64

    /// The largest magnitude a time may have: about 146 years. Arithmetic clamps to it.
    public static let limit: Int64 = 1 << 62

    /// The clock's origin.
    public static let zero = VirtualTime(nanoseconds: 0)

    /// Creates a time from nanoseconds, clamped to ±``limit``.
    public init(nanoseconds: Int64) {
        self.nanoseconds = max(-VirtualTime.limit, min(VirtualTime.limit, nanoseconds))
    }

    /// Creates a time from seconds, rounded to the nearest nanosecond and clamped;
    /// nil for NaN or infinity.
    public init?(seconds: Double) {
        guard let ns = VirtualTime.nanoseconds(fromSeconds: seconds) else { return nil }
        self.init(nanoseconds: ns)
    }

    /// Reads a JSON number of seconds. A plain decimal with at most 9 fraction
    /// digits (`28`, `0.000000001`) converts exactly; anything else goes through
    /// `Double` and is rounded to the nearest nanosecond. Nil when not finite.
    public init?(seconds number: JSONNumber) {
        if let exact = VirtualTime.exactNanoseconds(number.literal) {
            self.init(nanoseconds: exact)
        } else if let d = number.doubleValue {
            self.init(seconds: d)
        } else {
            return nil
        }
    }

    private static func exactNanoseconds(_ literal: String) -> Int64? {
        var bytes = Array(literal.utf8)
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes.removeFirst()
        }
        guard !bytes.isEmpty, bytes.count <= 30, !bytes.contains(UInt8(ascii: "e")), !bytes.contains(UInt8(ascii: "E"))
        else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, let wholeDigits = parts.first, !wholeDigits.isEmpty, wholeDigits.count <= 19 else {
            return nil
        }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        guard fraction.count <= 9 else { return nil }
        var whole: Int64 = 0
        for d in wholeDigits {
            guard d >= 0x30, d <= 0x39 else { return nil }
            let (times10, o1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(d - 0x30))
            if o1 || o2 { return negative ? -limit : limit }
            whole = sum
        }
        var frac: Int64 = 0
        for d in fraction {
            guard d >= 0x30, d <= 0x39 else { return nil }
            frac = frac * 10 + Int64(d - 0x30)
        }
        for _ in fraction.count..<9 { frac *= 10 }
        // Beyond the clock's range the value clamps (init(nanoseconds:) clamps too).
        let (scaled, o1) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (ns, o2) = scaled.addingReportingOverflow(frac)
        if o1 || o2 || ns > limit { return negative ? -limit : limit }
        return negative ? -ns : ns
    }

    /// Converts seconds to nanoseconds (rounded, clamped); nil for NaN or infinity.
    public static func nanoseconds(fromSeconds seconds: Double) -> Int64? {
        guard seconds.isFinite else { return nil }
        let ns = (seconds * 1e9).rounded()
        if ns >= Double(limit) { return limit }
        if ns <= -Double(limit) { return -limit }
        return Int64(ns)
    }

    /// The time in seconds as a `Double` (for display; not exact).
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// This time plus a number of nanoseconds, clamped.
    public func adding(nanoseconds delta: Int64) -> VirtualTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
        if overflow { return VirtualTime(nanoseconds: delta > 0 ? VirtualTime.limit : -VirtualTime.limit) }
        return VirtualTime(nanoseconds: sum)
    }

    /// This time plus a number of seconds (rounded to ns, clamped; an infinite
    /// offset clamps to the limit); self for NaN.
    public func adding(seconds: Double) -> VirtualTime {
        if seconds.isInfinite { return VirtualTime(nanoseconds: seconds > 0 ? VirtualTime.limit : -VirtualTime.limit) }
        guard let delta = VirtualTime.nanoseconds(fromSeconds: seconds) else { return self }
        return adding(nanoseconds: delta)
    }

    public static func < (a: VirtualTime, b: VirtualTime) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The exact decimal text of the time in seconds (`28`, `-0.5`, `0.000000001`).
    public var decimalSeconds: String {
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = magnitude % 1_000_000_000
        var text = nanoseconds < 0 ? "-" + String(whole) : String(whole)
        guard fraction != 0 else { return text }
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
        return text
    }

    /// The time as a JSON number of seconds.
    public var json: JSONValue { .number(JSONNumber(uncheckedLiteral: decimalSeconds)) }

    public var description: String { decimalSeconds + "s" }
}
