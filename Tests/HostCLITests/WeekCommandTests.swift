import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `plugin-host week` run as a binary: its figures are held to the events it reports
/// having seen (counted again here, not compared with a recorded output), and its text
/// table to its JSON.
@Suite("plugin-host week")
struct WeekCommandTests {
    /// One stretch's figures, counted from the events.
    struct Figures: Equatable {
        var refresh = 0
        var processing = 0
        var completions = 0
        var expirations: [String: Int] = [:]
        var terminations: [String: Int] = [:]
        var gapRefresh = 0.0
        var gapProcessing = 0.0
    }

    /// The figures of the events between `start` and `end`, as the command's help defines them.
    static func count(_ events: [JSONValue], from start: Double, to end: Double) -> Figures {
        let inside = events.filter { e in
            let at = e["at"]?.doubleValue ?? -1
            return at >= start && at < end
        }
        var f = Figures()
        var launches: [String: [Double]] = ["refresh": [], "processing": []]
        for e in inside {
            switch e["event"]?.stringValue {
            case "launched": launches[e["kind"]?.stringValue ?? "", default: []].append(e["at"]?.doubleValue ?? 0)
            case "expired": f.expirations[e["cause"]?.stringValue ?? "unknown", default: 0] += 1
            case "completed": f.completions += 1
            case "appTerminated": f.terminations[e["reason"]?.stringValue ?? "unknown", default: 0] += 1
            default: Issue.record("an unknown event: \(e)")
            }
        }
        func gap(_ times: [Double]) -> Double {
            let points = [start] + times.sorted() + [end]
            return zip(points, points.dropFirst()).map { $1 - $0 }.max() ?? 0
        }
        f.refresh = launches["refresh"]?.count ?? 0
        f.processing = launches["processing"]?.count ?? 0
        f.gapRefresh = gap(launches["refresh"] ?? [])
        f.gapProcessing = gap(launches["processing"] ?? [])
        return f
    }

    /// The figures the command printed for one stretch.
    static func printed(_ o: JSONValue?) -> Figures {
        var f = Figures()
        f.refresh = Int(o?["launches"]?["refresh"]?.doubleValue ?? -1)
        f.processing = Int(o?["launches"]?["processing"]?.doubleValue ?? -1)
        f.completions = Int(o?["completions"]?.doubleValue ?? -1)
        for (cause, n) in o?["expirations"]?.objectValue ?? [:] { f.expirations[cause] = Int(n.doubleValue ?? -1) }
        for (reason, n) in o?["appTerminations"]?.objectValue ?? [:] {
            f.terminations[reason] = Int(n.doubleValue ?? -1)
        }
        f.gapRefresh = ((o?["longestGapSecs"]?["refresh"]?.doubleValue ?? -1) * 1000).rounded() / 1000
        f.gapProcessing = ((o?["longestGapSecs"]?["processing"]?.doubleValue ?? -1) * 1000).rounded() / 1000
        return f
    }

    static func rounded(_ f: Figures) -> Figures {
        var r = f
        r.gapRefresh = (f.gapRefresh * 1000).rounded() / 1000
        r.gapProcessing = (f.gapProcessing * 1000).rounded() / 1000
        return r
    }

    @Test(arguments: [
        ["--days", "3"], ["--days", "2", "--legacy", "--app-states", "--os-seed", "5"], ["--days", "2", "--legacy"],
    ])
    func figuresAreTheEventsSeen(_ options: [String]) async throws {
        let r = try await runHost(["week", "--json"] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        let days = Int(report["days"]?.doubleValue ?? 0)
        let events = report["events"]?.arrayValue ?? []
        let perDay = report["perDay"]?.arrayValue ?? []
        #expect(perDay.count == days && days > 0)
        for (d, printed) in perDay.enumerated() {
            let counted = Self.count(events, from: Double(d) * 86_400, to: Double(d + 1) * 86_400)
            #expect(Self.printed(printed) == Self.rounded(counted), "day \(d + 1)")
        }
        let totals = Self.count(events, from: 0, to: Double(days) * 86_400)
        #expect(Self.printed(report["totals"]) == Self.rounded(totals))
        // Not an empty week: the OS launched refresh tasks and the Rust side completed them.
        #expect(totals.refresh >= days && totals.completions > 0, "\(totals)")
    }

    /// The strict host releases the keepalive when a run ends on its own (docs/host.md, D5):
    /// each sync leaves nothing scheduled, as `--help` says: no launch, no expiration (the
    /// suspended app may still be ended by jetsam, which needs no schedule).
    @Test func strictSchedulesNothingAfterASync() async throws {
        let r = try await runHost(["week", "--days", "1", "--profile", "strict", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        let events = report["events"]?.arrayValue ?? [["event": "none"]]
        let jetsam = events.allSatisfy { $0["event"] == "appTerminated" && $0["reason"] == "jetsam" }
        #expect(jetsam, "\(events)")
        #expect(report["atTheEnd"]?["refresh"]?.stringValue == "not pending, so there is nothing to launch")
    }

    @Test func textTableIsTheJSONsFigures() async throws {
        let json = try await runHost(["week", "--days", "2", "--json"])
        let text = try await runHost(["week", "--days", "2"])
        #expect(json.status == 0 && text.status == 0, "stderr: \(text.stderr)")
        let totals = Self.printed(try JSONParser.parse(Array(json.stdout.utf8))["totals"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        // The title, the header, two days, the totals, and what iOS says of each request at the end: 7.
        #expect(lines.count == 7, "\(text.stdout)")
        #expect(lines.last?.hasPrefix("at the end, the processing request: ") == true)
        let total =
            lines.dropLast(2).last?.split(separator: " ", omittingEmptySubsequences: true).map(String.init) ?? []
        #expect(total.first == "total")
        #expect(
            total.dropFirst().prefix(3)
                == [String(totals.refresh), String(totals.processing), String(totals.completions)][...])
    }

    @Test(arguments: [
        ["--days", "0"], ["--days", "x"], ["--days", "61"], ["--bogus"], ["extra"], ["--profile", "nope"],
        ["--os-seed", "-1"], ["--days"], ["--", "--ios-defaults", "legacy"], ["--", "--ios-defaults=device"],
    ])
    func usageErrors(_ options: [String]) async throws {
        let r = try await runHost(["week"] + options)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("plugin-host week: "), "\(r.stderr)")
        #expect(r.stderr.contains("see `plugin-host week --help`"))
    }

    @Test func helpDescribesTheOptions() async throws {
        let r = try await runHost(["week", "--help"])
        #expect(r.status == 0)
        for option in ["--days N", "--os-seed N", "--profile", "--legacy", "--app-states", "--json"] {
            #expect(r.stdout.contains(option), "\(option)")
        }
    }
}
