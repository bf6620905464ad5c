import Foundation
import HostProtocol

/// What `plugin-host bench` measured, with the targets of the issues that asked
/// for it, as a table for people and JSON for machines.
package struct BenchReport {
    var date = ISO8601DateFormatter().string(from: Date())
    var placement: BenchRunner.Placement
    var pinned: Bool { placement == .pinned }
    var build: String
    var sequential: BenchRunner.Sequential
    var asyncCall: Latency
    var pipelined: [BenchRunner.Pipelined]
    var startup: Latency
    var memory: [MemorySample]
    var fuzz: (seconds: Double, jobs: Int, steps: Int)?
    /// The system level under `--os ios`, realistic device days (empty when skipped).
    package var simulatedTime: [SimulatedTimeFigure] = []
    /// Where the host and the plugin ran during the sequential round trips.
    package var processCPUs: [ProcessCPU] = []

    package init(
        placement: BenchRunner.Placement, build: String, sequential: BenchRunner.Sequential, asyncCall: Latency,
        pipelined: [BenchRunner.Pipelined], startup: Latency, memory: [MemorySample],
        fuzz: (seconds: Double, jobs: Int, steps: Int)?
    ) {
        self.placement = placement
        self.build = build
        self.sequential = sequential
        self.asyncCall = asyncCall
        self.pipelined = pipelined
        self.startup = startup
        self.memory = memory
        self.fuzz = fuzz
    }

    var floor: Latency { sequential.floor }
    var cFloor: Latency { sequential.cFloor }
    var sequentialRatio: Double { sequential.cancel.p50 / floor.p50 }
    var sequentialRatioToC: Double { sequential.cancel.p50 / cFloor.p50 }
    var sequentialTarget: Double { pinned ? 2.5 : 1.2 }
    var window256: BenchRunner.Pipelined? { pipelined.first { $0.window == 256 } }
    var rssAfterLastKB: Int { memory.last?.rssKB ?? 0 }
    var growthKB: Int { (memory.last?.rssKB ?? 0) - (memory.first?.rssKB ?? 0) }

    struct Target {
        let name: String
        let met: Bool
        let detail: String
    }

    var targets: [Target] {
        let w256 = window256?.invokes ?? 0
        let w256ToC = window256?.ratioToCFloor ?? 0
        let placed = pinned ? "pinned" : "on different CPUs"
        let first = memory.first?.invokes ?? 0
        let last = memory.last?.invokes ?? 0
        let processDays = simulatedTime.filter { $0.plugin == "process" }.map(\.deviceDaysPerSecond).max()
        var list = [
            Target(
                name: "sequential invoke p50 / Swift echo p50", met: sequentialRatio <= sequentialTarget,
                detail: String(format: "%.2fx (target <= %.1fx %@)", sequentialRatio, sequentialTarget, placed)),
            Target(
                name: "sequential invoke p50 / C floor p50", met: sequentialRatioToC <= 1.15,
                detail: String(format: "%.2fx (target <= 1.15x, %@)", sequentialRatioToC, placed)),
            Target(
                name: "pipelined, window 256", met: w256 >= 300_000,
                detail: String(format: "%.0f invokes/s (target >= 300,000)", w256)),
            Target(
                name: "pipelined, window 256 / C floor", met: w256ToC >= 0.6,
                detail: String(format: "%.2fx (target >= 0.6x, %@)", w256ToC, placed)),
            Target(
                name: "startup p50", met: startup.p50 / 1000 <= 10,
                detail: String(format: "%.2f ms (target <= 10 ms)", startup.p50 / 1000)),
            Target(
                name: "plugin RSS", met: rssAfterLastKB <= 12 * 1024,
                detail: "\(rssAfterLastKB) KiB after \(last) invokes (target <= 12 MiB)"),
            Target(
                name: "RSS growth", met: growthKB <= 1024,
                detail: "\(growthKB) KiB between \(first) and \(last) invokes (target <= 1 MiB)"),
        ]
        if let processDays {
            list.append(
                Target(
                    name: "system level through the plugin binary", met: processDays >= 30,
                    detail: String(format: "%.1f simulated device-days/s (target >= 30)", processDays)))
        }
        return list
    }

    static func ratio(_ x: Double, _ y: Double) -> JSONValue { .number((x / y * 100).rounded() / 100) }

    func latencyJSON(_ l: Latency) -> JSONValue {
        [
            "p50": .number(l.p50), "p90": .number(l.p90), "p99": .number(l.p99), "max": .number(l.max),
            "samples": .number(l.samples.count),
            "ratioToFloor": Self.ratio(l.p50, floor.p50), "ratioToCFloor": Self.ratio(l.p50, cFloor.p50),
        ]
    }

    func pipelinedJSON(_ p: BenchRunner.Pipelined) -> JSONValue {
        [
            "window": .number(p.window), "invokesPerSecond": .number(p.invokes.rounded()),
            "echoLinesPerSecond": .number(p.echo.rounded()), "cFloorLinesPerSecond": .number(p.cFloor.rounded()),
            "ratioToEcho": .number((p.ratioToEcho * 100).rounded() / 100),
            "ratioToCFloor": .number((p.ratioToCFloor * 100).rounded() / 100),
        ]
    }

    package var json: JSONValue {
        let machine: JSONValue = [
            "cpus": .number(ProcReader.cpuCount), "cpu": .string(ProcReader.cpuModel),
            "kernel": .string(ProcReader.kernel), "load": .number(ProcReader.loadAverage),
        ]
        var o: [String: JSONValue] = [
            "date": .string(date), "pinned": .bool(pinned), "placement": .string(placement.rawValue),
            "build": .string(build), "machine": machine,
            "unit": .string(
                "microseconds (latencies), per second (pipelined), milliseconds (startup), KiB (memory), "
                    + "wall seconds and simulated days (systemLevel)"),
            "floor": latencyJSON(floor), "cFloor": latencyJSON(cFloor),
            "sequential": [
                "cancelCancelListener": latencyJSON(sequential.cancel),
                "completeBgTask": latencyJSON(sequential.complete),
            ],
            "asyncCall": latencyJSON(asyncCall),
            "pipelined": .array(pipelined.map(pipelinedJSON)),
            "startup": [
                "p50": .number(startup.p50 / 1000), "p90": .number(startup.p90 / 1000),
                "samples": .number(startup.samples.count),
            ],
            "memory": .array(
                memory.map {
                    [
                        "invokes": .number($0.invokes), "rssKB": .number($0.rssKB), "peakKB": .number($0.peakKB),
                        "anonKB": .number($0.anonKB), "fileKB": .number($0.fileKB),
                    ]
                }),
            "targets": .array(
                targets.map { ["name": .string($0.name), "met": .bool($0.met), "detail": .string($0.detail)] }),
        ]
        if !simulatedTime.isEmpty { o["systemLevel"] = .array(simulatedTime.map(\.json)) }
        if let fuzz {
            o["fuzz"] = [
                "seconds": .number(fuzz.seconds), "jobs": .number(fuzz.jobs), "steps": .number(fuzz.steps),
                "stepsPerSecond": .number((Double(fuzz.steps) / fuzz.seconds).rounded()),
            ]
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
                + String(
                    format: "%8.1f %8.1f %8.1f %9.1f   %5.2fx  %5.2fx", l.p50, l.p90, l.p99, l.max, l.p50 / floor.p50,
                    l.p50 / cFloor.p50)
        }
        func rates(_ name: String, _ value: (BenchRunner.Pipelined) -> String) -> String {
            name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + pipelined.map { value($0).leftPadding(toLength: 12) }.joined()
        }
        let bytes = BenchRunner.typicalRequest.count
        let load = String(format: "%.2f", ProcReader.loadAverage)
        var lines = [
            "plugin-host bench (\(build) build, \(placementText), \(ProcReader.cpuCount) CPUs: "
                + "\(ProcReader.cpuModel), load \(load) at the end)",
            "",
            "round trip (µs)                        p50      p90      p99       max   vs echo   vs C",
            row("C floor: pipe echo, \(bytes)-byte line", cFloor),
            row("Swift echo, \(bytes)-byte line", floor),
            row("cancelCancelListener (blocking)", sequential.cancel),
            row("completeBgTask (blocking)", sequential.complete),
            row("cancelCancelListener (async API)", asyncCall),
            "",
            rates("pipelined (per second), window") { "\($0.window)" },
            rates("  C floor (lines)") { "\(Int($0.cFloor))" },
            rates("  Swift echo (lines)") { "\(Int($0.echo))" },
            rates("  cancelCancelListener (invokes)") { "\(Int($0.invokes))" },
            rates("  invokes vs C floor") { String(format: "%.2fx", $0.ratioToCFloor) },
            rates("  invokes vs Swift echo") { String(format: "%.2fx", $0.ratioToEcho) },
            "",
            String(
                format: "startup (spawn to initialize reply)  p50 %.2f ms, p90 %.2f ms (%d starts)", startup.p50 / 1000,
                startup.p90 / 1000, startup.samples.count),
            "plugin memory (KiB)                "
                + memory.map {
                    "after \($0.invokes): RSS \($0.rssKB) (own \($0.anonKB), binary and libraries \($0.fileKB)), "
                        + "peak \($0.peakKB)"
                }.joined(separator: "; "),
        ]
        if let fuzz {
            lines.append(
                String(
                    format: "plugin-level fuzzing               %.0f steps/s (%d jobs, %.0f s)",
                    Double(fuzz.steps) / fuzz.seconds, fuzz.jobs, fuzz.seconds))
        }
        if !simulatedTime.isEmpty {
            lines.append("system level, --os ios, realistic device days (simulated time per wall second):")
            lines += simulatedTime.map(\.text)
        }
        lines += ["", "targets:"] + targets.map { "  \($0.met ? "met    " : "MISSED ") \($0.name): \($0.detail)" }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadding(toLength length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
