import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host bench`: every field of the JSON report is there (the figures
/// themselves are measured by running it, never asserted by tests).
@Suite("plugin-host bench")
struct BenchCommandTests {
    @Test func jsonReportHasEveryField() async throws {
        let r = try await runHost(["bench", "--quick", "--json", "--plugin", Binaries.plugin])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        for key in ["date", "build", "pinned", "machine", "unit", "floor", "sequential", "asyncCall", "pipelined", "startup", "memory", "targets", "fuzz"] {
            #expect(report[key] != nil, "missing \(key)")
        }
        for latency in [report["floor"], report["sequential"]?["cancelCancelListener"], report["sequential"]?["completeBgTask"], report["asyncCall"]] {
            for key in ["p50", "p90", "p99", "max", "samples", "ratioToFloor"] {
                #expect(latency?[key]?.doubleValue != nil, "a latency lacks \(key)")
            }
        }
        let windows = report["pipelined"]?.arrayValue?.compactMap { $0["window"]?.int64Value }
        #expect(windows == [1, 16, 256])
        #expect(report["pipelined"]?.arrayValue?.allSatisfy { $0["invokesPerSecond"]?.doubleValue != nil } == true)
        for key in ["p50", "p90", "samples"] { #expect(report["startup"]?[key] != nil, "startup lacks \(key)") }
        let memory = try #require(report["memory"]?.arrayValue)
        #expect(memory.count == 2)
        for sample in memory {
            for key in ["invokes", "rssKB", "peakKB", "anonKB", "fileKB"] { #expect(sample[key]?.int64Value != nil, "memory lacks \(key)") }
        }
        let targets = try #require(report["targets"]?.arrayValue)
        #expect(targets.count == 5)
        #expect(targets.allSatisfy { $0["name"]?.stringValue != nil && $0["met"]?.boolValue != nil && $0["detail"]?.stringValue != nil })
        for key in ["seconds", "jobs", "steps", "stepsPerSecond"] { #expect(report["fuzz"]?[key] != nil, "fuzz lacks \(key)") }
    }

    @Test func usageAndHelp() async throws {
        let help = try await runHost(["bench", "--help"])
        #expect(help.status == 0 && help.stdout.contains("usage: plugin-host bench"))
        let bad = try await runHost(["bench", "--calls", "zero"])
        #expect(bad.status == 64 && bad.stderr.contains("--calls"))
    }
}
