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
        #expect(report["failures"]?.arrayValue?.isEmpty == true)
        let findings = try #require(report["findings"]?.arrayValue)
        // D5 is found in the first case of any seed (docs/findings.md: 2 steps).
        #expect(findings.contains { $0["signature"]?.stringValue?.hasPrefix("D5") == true })
        for finding in findings {
            for key in ["os", "dispatch", "signature", "found", "medianSeconds", "worstSeconds"] {
                #expect(finding[key] != nil, "a finding lacks \(key)")
            }
        }
        #expect(r.stderr.contains("bench --findings: --os ios --dispatch tauri, seed 1 of 1"))
        // With one seed the median is the seed's time, or null (longer than the cap) for a miss.
        for finding in findings where finding["found"]?.int64Value == 0 {
            #expect(finding["medianSeconds"] == .null && finding["worstSeconds"] == .null)
        }
    }

    @Test func aMissCountsAsLongerThanTheCap() async throws {
        let r = try await runHost(["bench", "--findings", "--seeds", "1", "--finding-seconds", "0.2"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").dropFirst(2)
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row.contains("1/1") || row.contains("0/1    >   0.2 s  >   0.2 s"), "\(row)")
        }
    }

    @Test(arguments: [["--seeds", "0"], ["--finding-seconds", "0"], ["--seeds", "x"]])
    func badCountsAreUsageErrors(_ extra: [String]) async throws {
        let r = try await runHost(["bench", "--findings"] + extra)
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.contains("plugin-host bench:"))
    }
}
