import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host bench --findings`: the report's fields are there and the command finds
/// something in the shallowest configuration (the figures themselves are measured by
/// running it, never asserted by tests); bad counts are usage errors.
@Suite("plugin-host bench --findings")
struct FindingPowerBenchTests {
    @Test func jsonReportHasEveryField() async throws {
        let r = try await runHost(["bench", "--findings", "--seeds", "1", "--finding-seconds", "0.5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(report["seeds"]?.int64Value == 1 && report["plugin"]?.stringValue == "builtin")
        let findings = try #require(report["findings"]?.arrayValue)
        // D5 is found in the first case of any seed (docs/findings.md: 2 steps).
        #expect(findings.contains { $0["signature"]?.stringValue?.hasPrefix("D5") == true })
        for finding in findings {
            for key in ["os", "dispatch", "signature", "found", "medianSeconds", "worstSeconds"] {
                #expect(finding[key] != nil, "a finding lacks \(key)")
            }
        }
        #expect(r.stderr.contains("bench --findings: --os ios --dispatch tauri, seed 1 of 1"))
    }

    @Test(arguments: [["--seeds", "0"], ["--finding-seconds", "0"], ["--seeds", "x"]])
    func badCountsAreUsageErrors(_ extra: [String]) async throws {
        let r = try await runHost(["bench", "--findings"] + extra)
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.contains("plugin-host bench:"))
    }
}
