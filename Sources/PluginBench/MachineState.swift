import Foundation
import HostProtocol

/// How busy the machine is, read from /proc before and after a bench run: the load
/// averages, and the share of the CPUs other work took over a short sample.
///
/// The bench's figures are ratios taken in one run, but a ratio still moves when another
/// process takes the CPU one side of it runs on (the host on CPU 0, the plugin on CPU 1):
/// a round trip waits a scheduler tick for the CPU back. ``busyWarning(cpus:)`` says when
/// the machine was busy enough for that to matter.
///
/// ```swift
/// let before = MachineState.sample()
/// if let warning = before.busyWarning() { print(warning) }
/// ```
package struct MachineState: Sendable, Equatable {
    /// CPUs online.
    package var cpus: Int
    /// The 1-, 5- and 15-minute load averages (runnable and uninterruptible tasks).
    package var load: [Double]
    /// CPUs' worth of time not idle during the sample (0 to `cpus`), nil when
    /// /proc/stat could not be read.
    package var busyCPUs: Double?

    /// A 1-minute load average at or above this is a busy machine.
    package static let loadThreshold = 0.5
    /// Other work taking at least this many CPUs' worth of time during the sample is a
    /// busy machine.
    package static let busyThreshold = 0.25

    package init(cpus: Int, load: [Double], busyCPUs: Double?) {
        self.cpus = cpus
        self.load = load
        self.busyCPUs = busyCPUs
    }

    /// Reads the machine now: load averages, and /proc/stat twice `interval` apart.
    package static func sample(interval: Duration = .milliseconds(500)) -> MachineState {
        let first = cpuTimes(procStat: read("/proc/stat"))
        Thread.sleep(forTimeInterval: interval.seconds)
        let second = cpuTimes(procStat: read("/proc/stat"))
        let cpus = ProcReader.cpuCount
        var busy: Double?
        if let a = first, let b = second, b.total > a.total {
            busy = Double(b.busy - a.busy) / Double(b.total - a.total) * Double(cpus)
        }
        return MachineState(cpus: cpus, load: loadAverages(read("/proc/loadavg")), busyCPUs: busy)
    }

    /// The three load averages of /proc/loadavg's text (empty when unreadable).
    package static func loadAverages(_ text: String) -> [Double] {
        let fields = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return fields.count == 3 ? fields : []
    }

    /// Busy and total jiffies of the first (`cpu`, all CPUs) line of /proc/stat's text:
    /// idle and iowait are not busy; guest time is already in user time.
    package static func cpuTimes(procStat text: String) -> (busy: UInt64, total: UInt64)? {
        guard let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard values.count >= 4 else { return nil }
        let counted = Array(values.prefix(8))  // user nice system idle iowait irq softirq steal
        let total = counted.reduce(0, +)
        let idle = counted[3] + (counted.count > 4 ? counted[4] : 0)
        return (total - idle, total)
    }

    /// Why the figures may be disturbed, or nil on a quiet machine: a 1-minute load
    /// average of at least ``loadThreshold``, or other work taking at least
    /// ``busyThreshold`` CPUs during the sample (`ownCPUs` of it the bench's own).
    package func busyWarning(ownCPUs: Double = 0) -> String? {
        var reasons: [String] = []
        if let load1 = load.first, load1 >= Self.loadThreshold {
            reasons.append(String(format: "1-minute load average %.2f (threshold %.2f)", load1, Self.loadThreshold))
        }
        if let busy = busyCPUs, busy - ownCPUs >= Self.busyThreshold {
            reasons.append(
                String(
                    format: "other work took %.2f of %d CPUs (threshold %.2f)", busy - ownCPUs, cpus,
                    Self.busyThreshold))
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// `{cpus, load: [1, 5, 15 min], busyCPUs}` (`busyCPUs` null when unreadable).
    var json: JSONValue {
        [
            "cpus": .number(cpus), "load": .array(load.map { .number($0) }),
            "busyCPUs": busyCPUs.map { .number(($0 * 100).rounded() / 100) } ?? .null,
        ]
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
