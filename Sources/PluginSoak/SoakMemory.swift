import Foundation
import PluginBench

/// Memory figures of a process from `/proc/PID/status`, in KiB.
package struct SoakMemory: Sendable, Hashable {
    /// `VmRSS`: resident now.
    package var rss: Int
    /// `VmHWM`: the peak resident size.
    package var peak: Int

    /// Reads a process's figures; nil when it is gone or /proc is missing.
    package static func of(pid: Int32) -> SoakMemory? {
        ProcReader.memory(pid: pid).map { SoakMemory(rss: $0.rssKB, peak: $0.peakKB) }
    }

    /// This process's figures.
    static var current: SoakMemory? { of(pid: getpid()) }
}

/// Nearest-rank percentiles of durations, in milliseconds.
struct Millis: Sendable {
    let sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.sorted() }

    func percentile(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }

    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
    var max: Double { sorted.last ?? 0 }
    var min: Double { sorted.first ?? 0 }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
