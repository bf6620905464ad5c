import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginSoak

/// `plugin-host soak`, run small: it passes against the built plugin, reports a
/// memory sample per round and empty pending tables, and its usage errors exit 64.
@Suite("Reliability: soak")
struct ReliabilitySoakTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await runHost(arguments)
    }

    @Test func aSmallSoakPasses() async throws {
        // Debug (or sanitizer) builds and a few rounds: no growth limit here (ASan's
        // quarantine alone grows by megabytes); the verdict's logic is tested below, and
        // the full-size figures with the default 1 MiB limit are in docs/reliability.md.
        let r = try await run([
            "soak", "--plugin", Binaries.plugin, "--invokes", "3000", "--fuzz-cases", "300", "--rounds", "3",
            "--warmup-rounds", "1",
            "--fault-trials", "2", "--fault-budget-ms", "5000", "--growth-limit-kb", "100000000", "--json",
        ])
        #expect(r.status == 0, "stdout: \(r.stdout)\nstderr: \(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(report["pass"] == .bool(true))
        #expect(report["samples"]?.arrayValue?.count == 3)
        #expect(report["samples"]?.arrayValue?.last?["invokes"]?.int64Value ?? 0 >= 3000)
        #expect(report["samples"]?.arrayValue?.last?["fuzzCases"] == .number(300))
        #expect(report["invokeMismatches"] == .number(0))
        #expect(report["fuzzViolations"] == .number(0))
        #expect(report["hostPendingAtEnd"] == .number(0))
        #expect(report["leakedPluginIDs"] == .number(0))
        #expect(report["probedIDs"]?.int64Value ?? 0 > 0)
        #expect(report["faults"]?.arrayValue?.count == FaultLatency.Kind.allCases.count)
        #expect(r.stderr.contains("soak: round 3/3"), "progress goes to stderr")
    }

    @Test func textReportNamesTheFigures() async throws {
        let r = try await run([
            "soak", "--plugin", Binaries.plugin, "--invokes", "200", "--fuzz-cases", "20", "--rounds", "2",
            "--warmup-rounds", "1", "--fault-trials", "0", "--growth-limit-kb", "100000000",
        ])
        #expect(r.status == 0, "stdout: \(r.stdout)\nstderr: \(r.stderr)")
        #expect(r.stdout.contains("plugin VmRSS after warm-up"))
        #expect(r.stdout.contains("pending at the end: host 0"))
        #expect(r.stdout.hasSuffix("PASS\n"))
    }

    /// The verdict: growth after the warm-up, leaks, wrong answers and slow faults fail.
    @Test func theVerdictCatchesGrowthLeaksAndSlowFaults() {
        func sample(_ round: Int, plugin: Int, host: Int = 100) -> SoakRunner.Sample {
            .init(
                round: round, invokes: 0, requests: 0, fuzzCases: 0, seconds: 0,
                plugin: SoakMemory(rss: plugin, peak: plugin),
                host: SoakMemory(rss: host, peak: host), hostPending: 0)
        }
        var settings = SoakRunner.Settings(plugin: "p")
        settings.warmUpRounds = 2
        var report = SoakRunner.Report()
        report.samples = [
            sample(1, plugin: 5000), sample(2, plugin: 9000), sample(3, plugin: 9500), sample(4, plugin: 9100),
        ]
        report.hostPendingAtEnd = 0
        report.leakedPluginIDs = 0
        #expect(report.growth(warmUpRounds: 2) == 500)
        #expect(SoakRunner.judge(report, settings).isEmpty, "growth during the warm-up does not count")
        report.samples.append(sample(5, plugin: 10100))
        #expect(
            SoakRunner.judge(report, settings) == ["plugin VmRSS grew by 1100 KiB after the warm-up (limit 1024 KiB)"])
        report.samples.removeLast()
        report.samples.append(sample(5, plugin: 9000, host: 2000))
        #expect(
            SoakRunner.judge(report, settings) == ["host VmRSS grew by 1900 KiB after the warm-up (limit 1024 KiB)"])
        report.samples.removeLast()
        report.error = "the host's pending table still holds 3 calls"
        #expect(SoakRunner.judge(report, settings) == ["the host's pending table still holds 3 calls"])
        report.error = nil
        report.faults = [
            .init(kind: .sigkill, noticed: Millis([1, 2, 150]), reaped: Millis([1, 2, 150]), failures: [])
        ]
        #expect(SoakRunner.judge(report, settings) == ["fault sigkill: p99 150.0 ms over the 100 ms budget"])
    }

    @Test(arguments: [
        ["soak", "--invokes", "x"], ["soak", "--rounds", "0"], ["soak", "--rounds", "2", "--warmup-rounds", "2"],
        ["soak", "extra"], ["soak", "--nope"],
        // Rounds that serve nothing would take the baseline before the plugin had done any work.
        ["soak", "--invokes", "0", "--fuzz-cases", "0"],
        ["soak", "--invokes", "5", "--fuzz-cases", "9", "--rounds", "10"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let r = try await run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("plugin-host soak: "))
        #expect(r.stderr.hasSuffix("see `plugin-host soak --help`\n"))
    }

    @Test func helpDocumentsTheDefaults() async throws {
        let r = try await run(["soak", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--invokes N            invokes in all (default 1000000)"))
        #expect(r.stdout.contains("--fuzz-cases N         fuzz cases in all (default 100000)"))
        let top = try await run(["--help"])
        #expect(top.stdout.contains("soak "))
    }

    /// A plugin named with --plugin that is not there is a usage error, as every missing
    /// file named on the command line is.
    @Test func aMissingPluginIsAUsageError() async throws {
        let r = try await run(["soak", "--plugin", "/nonexistent/plugin", "--invokes", "10"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("no executable plugin at /nonexistent/plugin"))
        #expect(!r.stderr.contains("swift build"), "no build hint for a path the user gave")
    }
}
