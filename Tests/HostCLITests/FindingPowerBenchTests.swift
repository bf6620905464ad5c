import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import HostCLI

/// `plugin-host bench --findings`: the report's fields are there and bad counts are usage
/// errors (the figures themselves are measured by running it, never asserted by tests; what
/// a short run finds depends on the machine's speed, so the command's tests assert nothing
/// about which findings come); the table's arithmetic and layout on rows made here.
@Suite("plugin-host bench --findings")
struct FindingPowerBenchTests {
    @Test func jsonReportHasEveryField() async throws {
        let r = try await runHost(["bench", "--findings", "--seeds", "1", "--finding-seconds", "0.5", "--json"])
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(report["seeds"]?.int64Value == 1 && report["plugin"]?.stringValue == "builtin")
        #expect(report["swarm"] == .bool(false) && report["guided"] == .bool(false))
        let failures = try #require(report["failures"]?.arrayValue).compactMap(\.stringValue)
        // Under a sanitizer a case can outlast a 0.5 s run's time (plus 3 s for a case in
        // progress), or an answer its 10 s: the fuzzer then reports the plugin failing, and
        // the bench lists it and exits 3, its report complete. Otherwise every run ends well.
        if SanitizerBuild.active, r.status == 3 {
            #expect(failures.allSatisfy { $0.hasPrefix("--os ") } && !failures.isEmpty, "\(failures)")
        } else {
            #expect(r.status == 0 && failures.isEmpty, "\(r.stderr)")
        }
        let findings = try #require(report["findings"]?.arrayValue)
        for finding in findings {
            for key in ["os", "dispatch", "signature", "found", "medianSeconds", "worstSeconds"] {
                #expect(finding[key] != nil, "a finding lacks \(key)")
            }
            // With one seed the median is the seed's time, or null (longer than the cap) for a miss.
            let found = finding["found"]?.int64Value
            #expect((found == 0) == (finding["medianSeconds"] == .null))
        }
        for configuration in ["--os manual --dispatch serial", "--os ios --dispatch tauri"] {
            #expect(r.stderr.contains("bench --findings: \(configuration), seed 1 of 1"))
        }
    }

    static let ios = FindingPowerBench.Configuration(os: .ios, dispatch: .serial)

    static func row(_ times: [Double], of seeds: Int) -> FindingPowerBench.Row {
        FindingPowerBench.Row(configuration: ios, signature: "D5: x", times: times, seeds: seeds, cap: 10)
    }

    @Test func theMedianCountsAMissAsLongerThanTheCap() {
        #expect(Self.row([1, 3, 2], of: 3).median == 2 && Self.row([1, 3, 2], of: 3).worst == 3)
        #expect(Self.row([1, 3], of: 4).median == nil && Self.row([1, 3], of: 4).worst == nil)
        #expect(Self.row([1, 3, 5], of: 4).median == 4 && Self.row([1, 3, 5], of: 4).worst == nil)
        #expect(Self.row([], of: 10).median == nil)
    }

    @Test func theTableSaysWhatWasMissed() {
        let request = FindingPowerBench.Request(plugin: "builtin", seeds: 10, seconds: 10)
        var m = FindingPowerBench.Measurement()
        m.rows = [Self.row([0.5, 0.25], of: 2), Self.row([], of: 2)]
        m.failures = ["--os ios --dispatch serial, seed 2: the plugin hung"]
        let lines = FindingPowerBench.text(m, request).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[2] == "--os ios --dispatch serial      2/2       0.38 s     0.50 s  D5: x")
        #expect(lines[3] == "--os ios --dispatch serial      0/2    >  10.0 s  >  10.0 s  D5: x")
        #expect(lines[4] == "the plugin failed: --os ios --dispatch serial, seed 2: the plugin hung")
        let json = FindingPowerBench.json(m, request)
        #expect(json["findings"]?.arrayValue?[1]["worstSeconds"] == .null && json["failures"]?.arrayValue?.count == 1)
    }

    @Test(arguments: [["--seeds", "0"], ["--finding-seconds", "0"], ["--seeds", "x"]])
    func badCountsAreUsageErrors(_ extra: [String]) async throws {
        let r = try await runHost(["bench", "--findings"] + extra)
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.contains("plugin-host bench:"))
    }
}
