import Foundation
import HostProtocol

/// What `plugin-host bench` measured, with the targets of the issue that asked
/// for it, as a table for people and JSON for machines.
package struct BenchReport {
    var date = ISO8601DateFormatter().string(from: Date())
    var placement: BenchRunner.Placement
    var pinned: Bool { placement == .pinned }
    var build: String
    var floor: Latency
    var cancelCancelListener: Latency
    var completeBgTask: Latency
    var asyncCall: Latency
    var pipelined: [(window: Int, perSecond: Double)]
    var startup: Latency
    var memory: [MemorySample]
    var fuzz: (seconds: Double, jobs: Int, steps: Int)?

    package init(
        placement: BenchRunner.Placement, build: String, floor: Latency, cancelCancelListener: Latency, completeBgTask: Latency,
        asyncCall: Latency, pipelined: [(window: Int, perSecond: Double)], startup: Latency, memory: [MemorySample],
        fuzz: (seconds: Double, jobs: Int, steps: Int)?
    ) {
        self.placement = placement
        self.build = build
        self.floor = floor
        self.cancelCancelListener = cancelCancelListener
        self.completeBgTask = completeBgTask
        self.asyncCall = asyncCall
        self.pipelined = pipelined
        self.startup = startup
        self.memory = memory
        self.fuzz = fuzz
    }

    var sequentialRatio: Double { cancelCancelListener.p50 / floor.p50 }
    var sequentialTarget: Double { pinned ? 2.5 : 1.2 }
    var window256: Double { pipelined.first { $0.window == 256 }?.perSecond ?? 0 }
    var rssAfterLastKB: Int { memory.last?.rssKB ?? 0 }
    var growthKB: Int { (memory.last?.rssKB ?? 0) - (memory.first?.rssKB ?? 0) }

    struct Target {
        let name: String
        let met: Bool
        let detail: String
    }

    var targets: [Target] {
        [
            Target(name: "sequential invoke p50 / floor p50", met: sequentialRatio <= sequentialTarget,
                   detail: String(format: "%.2fx (target <= %.1fx %@)", sequentialRatio, sequentialTarget, pinned ? "pinned" : "on different CPUs")),
            Target(name: "pipelined, window 256", met: window256 >= 300_000, detail: String(format: "%.0f invokes/s (target >= 300,000)", window256)),
            Target(name: "startup p50", met: startup.p50 / 1000 <= 10, detail: String(format: "%.2f ms (target <= 10 ms)", startup.p50 / 1000)),
            Target(name: "plugin RSS", met: rssAfterLastKB <= 12 * 1024, detail: "\(rssAfterLastKB) KiB after \(memory.last?.invokes ?? 0) invokes (target <= 12 MiB)"),
            Target(name: "RSS growth", met: growthKB <= 1024, detail: "\(growthKB) KiB between \(memory.first?.invokes ?? 0) and \(memory.last?.invokes ?? 0) invokes (target <= 1 MiB)"),
        ]
    }

    func latencyJSON(_ l: Latency) -> JSONValue {
        ["p50": .number(l.p50), "p90": .number(l.p90), "p99": .number(l.p99), "max": .number(l.max), "samples": .number(l.samples.count),
         "ratioToFloor": .number((l.p50 / floor.p50 * 100).rounded() / 100)]
    }

    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "date": .string(date), "pinned": .bool(pinned), "placement": .string(placement.rawValue), "build": .string(build),
            "machine": ["cpus": .number(ProcReader.cpuCount), "cpu": .string(ProcReader.cpuModel), "kernel": .string(ProcReader.kernel)],
            "unit": "microseconds (latencies), invokes per second (pipelined), milliseconds (startup), KiB (memory)",
            "floor": latencyJSON(floor),
            "sequential": ["cancelCancelListener": latencyJSON(cancelCancelListener), "completeBgTask": latencyJSON(completeBgTask)],
            "asyncCall": latencyJSON(asyncCall),
            "pipelined": .array(pipelined.map { ["window": .number($0.window), "invokesPerSecond": .number($0.perSecond.rounded())] }),
            "startup": ["p50": .number(startup.p50 / 1000), "p90": .number(startup.p90 / 1000), "samples": .number(startup.samples.count)],
            "memory": .array(memory.map {
                ["invokes": .number($0.invokes), "rssKB": .number($0.rssKB), "peakKB": .number($0.peakKB), "anonKB": .number($0.anonKB), "fileKB": .number($0.fileKB)]
            }),
            "targets": .array(targets.map { ["name": .string($0.name), "met": .bool($0.met), "detail": .string($0.detail)] }),
        ]
        if let fuzz {
            o["fuzz"] = ["seconds": .number(fuzz.seconds), "jobs": .number(fuzz.jobs), "steps": .number(fuzz.steps),
                         "stepsPerSecond": .number((Double(fuzz.steps) / fuzz.seconds).rounded())]
        }
        return .object(o)
    }

    var placementText: String {
        switch placement {
        case .split: "host on CPU 0, plugin on CPU 1"
        case .pinned: "both processes pinned to CPU 0"
        case .free: "placed by the scheduler"
        }
    }

    package var text: String {
        func row(_ name: String, _ l: Latency) -> String {
            name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: "%8.1f %8.1f %8.1f %9.1f   %5.2fx", l.p50, l.p90, l.p99, l.max, l.p50 / floor.p50)
        }
        var lines = [
            "plugin-host bench (\(build) build, \(placementText), \(ProcReader.cpuCount) CPUs: \(ProcReader.cpuModel))",
            "",
            "round trip (µs)                        p50      p90      p99       max   vs floor",
            row("floor: raw echo, \(BenchRunner.typicalRequest.count)-byte line", floor),
            row("cancelCancelListener (blocking)", cancelCancelListener),
            row("completeBgTask (blocking)", completeBgTask),
            row("cancelCancelListener (async API)", asyncCall),
            "",
            "pipelined (window: invokes/s)      " + pipelined.map { "\($0.window): \(Int($0.perSecond))" }.joined(separator: "   "),
            String(format: "startup (spawn to initialize reply)  p50 %.2f ms, p90 %.2f ms (%d starts)", startup.p50 / 1000, startup.p90 / 1000, startup.samples.count),
            "plugin memory (KiB)                " + memory.map { "after \($0.invokes): RSS \($0.rssKB) (own \($0.anonKB), binary and libraries \($0.fileKB)), peak \($0.peakKB)" }.joined(separator: "; "),
        ]
        if let fuzz {
            lines.append(String(format: "plugin-level fuzzing               %.0f steps/s (%d jobs, %.0f s)", Double(fuzz.steps) / fuzz.seconds, fuzz.jobs, fuzz.seconds))
        }
        lines += ["", "targets:"] + targets.map { "  \($0.met ? "met    " : "MISSED ") \($0.name): \($0.detail)" }
        return lines.joined(separator: "\n")
    }
}
