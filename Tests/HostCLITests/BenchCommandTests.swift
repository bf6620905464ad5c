import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host bench`: every field of the JSON report is there (the figures
/// themselves are measured by running it, never asserted by tests).
@Suite("plugin-host bench")
struct BenchCommandTests {
    @Test func jsonReportHasEveryField() async throws {
        // --quick fuzzes for 1 s; a sanitizer build's plugin, started while the rest of the
        // suite runs, once wrote no frame before that second and the 3 s for a case in
        // progress ran out (the bench then rightly reports the plugin failing, exit 3).
        let fuzz = SanitizerBuild.active ? ["--fuzz-seconds", "8"] : []
        let r = try await runHost(["bench", "--quick", "--rounds", "2", "--json", "--plugin", Binaries.plugin] + fuzz)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        let keys = [
            "date", "build", "pinned", "machine", "unit", "floor", "cFloor", "sequential", "asyncCall", "pipelined",
            "startup", "memory", "targets", "fuzz", "systemLevel",
        ]
        for key in keys {
            #expect(report[key] != nil, "missing \(key)")
        }
        for key in ["cpus", "cpu", "kernel", "load", "before", "after", "processes", "warnings"] {
            #expect(report["machine"]?[key] != nil, "machine lacks \(key)")
        }
        for state in [report["machine"]?["before"], report["machine"]?["after"]] {
            for key in ["cpus", "load", "busyCPUs"] { #expect(state?[key] != nil, "a machine state lacks \(key)") }
        }
        let placements = try #require(report["machine"]?["processes"]?.arrayValue)
        #expect(placements.count == 2)
        #expect(
            placements.first?["placement"]?.arrayValue?.compactMap { $0["role"]?.stringValue } == ["host", "plugin"])
        // Two rounds of every measurement, each figure with its spread.
        #expect(report["rounds"]?["count"]?.int64Value == 2)
        #expect(report["rounds"]?["shown"]?.int64Value.map { (1...2).contains($0) } == true)
        let figures = try #require(report["rounds"]?["figures"]?.arrayValue)
        let names = figures.compactMap { $0["name"]?.stringValue }
        for name in [
            "sequential.cancelCancelListener.ratioToCFloor", "sequential.cancelCancelListener.aboveCFloor",
            "pipelined.256.ratioToCFloor", "startup.p50",
            "fuzz.stepsPerSecond", "systemLevel.process.1.deviceDaysPerSecond",
        ] {
            #expect(names.contains(name), "rounds lack \(name)")
        }
        for figure in figures {
            for key in ["min", "median", "max"] { #expect(figure[key]?.doubleValue != nil, "a figure lacks \(key)") }
            #expect(figure["values"]?.arrayValue?.count == 2)
        }
        let latencies = [
            report["floor"], report["cFloor"], report["sequential"]?["cancelCancelListener"],
            report["sequential"]?["completeBgTask"], report["asyncCall"],
        ]
        for latency in latencies {
            for key in ["p50", "p90", "p99", "max", "samples", "ratioToFloor", "ratioToCFloor"] {
                #expect(latency?[key]?.doubleValue != nil, "a latency lacks \(key)")
            }
        }
        let windows = report["pipelined"]?.arrayValue?.compactMap { $0["window"]?.int64Value }
        #expect(windows == [1, 16, 256])
        for entry in report["pipelined"]?.arrayValue ?? [] {
            let keys = [
                "invokesPerSecond", "echoLinesPerSecond", "cFloorLinesPerSecond", "ratioToEcho", "ratioToCFloor",
            ]
            for key in keys { #expect(entry[key]?.doubleValue != nil, "a pipelined entry lacks \(key)") }
        }
        for key in ["p50", "p90", "samples"] { #expect(report["startup"]?[key] != nil, "startup lacks \(key)") }
        let memory = try #require(report["memory"]?.arrayValue)
        #expect(memory.count == 2)
        for sample in memory {
            for key in ["invokes", "rssKB", "peakKB", "anonKB", "fileKB"] {
                #expect(sample[key]?.int64Value != nil, "memory lacks \(key)")
            }
        }
        let targets = try #require(report["targets"]?.arrayValue)
        #expect(targets.count == 8)
        #expect(
            targets.allSatisfy {
                $0["name"]?.stringValue != nil && $0["met"]?.boolValue != nil && $0["detail"]?.stringValue != nil
            })
        for key in ["seconds", "jobs", "steps", "stepsPerSecond"] {
            #expect(report["fuzz"]?[key] != nil, "fuzz lacks \(key)")
        }
        // The system level under --os ios: the binary and the built-in engine, 1 and 2 jobs.
        let system = try #require(report["systemLevel"]?.arrayValue)
        #expect(
            system.map { "\($0["plugin"]?.stringValue ?? "?") \($0["jobs"]?.int64Value ?? 0)" }
                == ["process 1", "process 2", "builtin 1", "builtin 2"])
        let fields = [
            "seconds", "cases", "steps", "stepsPerSecond", "simulatedDays", "deviceDaysPerSecond", "failedRuns",
        ]
        for entry in system {
            for key in fields { #expect(entry[key]?.doubleValue != nil, "a system-level entry lacks \(key)") }
        }
    }

    @Test func usageAndHelp() async throws {
        let help = try await runHost(["bench", "--help"])
        #expect(help.status == 0 && help.stdout.contains("usage: plugin-host bench"))
        let bad = try await runHost(["bench", "--calls", "zero"])
        #expect(bad.status == 64 && bad.stderr.contains("--calls"))
        #expect(help.stdout.contains("--rounds N"))
        let rounds = try await runHost(["bench", "--rounds", "0"])
        #expect(rounds.status == 64 && rounds.stderr.contains("--rounds"))
    }

    /// The C floor answers each command with the numbers it promises: one timing
    /// per round trip, one elapsed time per pipelined run, and an error line for a
    /// command it does not know (checked for shape, never for values).
    @Test func cFloorAnswersItsCommands() async throws {
        let path = Binaries.directory.appendingPathComponent("bench-floor").path
        let commands = "seq 5 2\npipe 16 100\nfly 1 2\npipe 256 1000\n"
        let r = try await runProgram(path, ["--line-bytes", "82"], input: commands)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        try #require(lines.count == 4, "\(r.stdout)")
        #expect(lines[0].count == 5 && lines[0].allSatisfy { UInt64($0).map { $0 > 0 } == true })
        #expect(lines[1].count == 1 && UInt64(lines[1][0]) != nil)
        #expect(lines[2].first == "error:")
        #expect(lines[3].count == 1 && UInt64(lines[3][0]) != nil)
        let bad = try await runProgram(path, ["--line-bytes", "-3"])
        #expect(bad.status == 64 && bad.stderr.contains("--line-bytes"))
        let missing = try await runHost(["bench", "--quick", "--c-floor", "/nonexistent/bench-floor"])
        // Named on the command line: a usage error, as a missing --plugin is.
        #expect(missing.status == 64 && missing.stderr.contains("--c-floor: no executable C floor"))
    }
}
