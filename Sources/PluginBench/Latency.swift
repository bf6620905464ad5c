import Dispatch

/// A set of timings and their percentiles, in microseconds.
public struct Latency: Sendable {
    /// Samples in nanoseconds, sorted.
    public let samples: [UInt64]

    /// Sorts the samples.
    public init(nanoseconds: [UInt64]) {
        samples = nanoseconds.sorted()
    }

    /// The q-quantile in microseconds (nearest rank).
    public func percentile(_ q: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let rank = Swift.min(samples.count - 1, Swift.max(0, Int((q * Double(samples.count)).rounded(.up)) - 1))
        return Double(samples[rank]) / 1000
    }

    /// The median, microseconds.
    public var p50: Double { percentile(0.5) }
    /// The 90th percentile, microseconds.
    public var p90: Double { percentile(0.9) }
    /// The 99th percentile, microseconds.
    public var p99: Double { percentile(0.99) }
    /// The largest sample, microseconds.
    public var max: Double { Double(samples.last ?? 0) / 1000 }

    /// Times `body` `count` times (after `warmup` untimed runs).
    public static func measure<E: Error>(count: Int, warmup: Int, _ body: () throws(E) -> Void) throws(E) -> Latency {
        for _ in 0..<warmup { try body() }
        var ns: [UInt64] = []
        ns.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            ns.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        return Latency(nanoseconds: ns)
    }
}
