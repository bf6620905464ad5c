import Foundation
import HostProtocol
import PluginHost
import Testing

@testable import PluginConformance

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the reports and progress lines say about skipped checks, broken transports
/// and runs stopped early.
@Suite("conformance reporting")
struct ConformanceReportingTests {
    static func outcome(
        _ name: String, _ status: CheckOutcome.Status, reason: String? = nil, breach: CheckOutcome.Breach? = nil
    ) -> CheckOutcome {
        let failure =
            status == .failed
            ? CheckOutcome.Failure(
                step: 1, steps: 1, sent: [], expected: [], actual: [], note: reason, stderrTail: "") : nil
        var o = CheckOutcome(
            name: name, profile: .seed, section: 3, rule: "a rule", status: status, reason: reason, failure: failure,
            seconds: 0.1)
        o.breach = breach
        return o
    }

    static let skipReason = "skipped (extension not offered: plugin/dispatchSchedule: not listed by rpc.discover)"
    static let outcomes = [
        outcome("a.pass", .passed),
        outcome("invoke.answered-once.race", .skipped, reason: skipReason),
        outcome("b.flood", .failed, reason: "the plugin flooded stdout: 2,001 frames", breach: .flooding),
        outcome("c.rule", .failed, reason: "reply 1 of 2 differs"),
    ]

    @Test func aSkippedCheckIsSkippedWithItsReasonInEveryFormat() throws {
        let text = ConformanceReport.text(Self.outcomes, plugin: "p")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("invoke.answered-once.race") })
        #expect(line.contains("skip") && line.contains(Self.skipReason) && !line.contains("pass"))
        #expect(text.hasSuffix("1 passed, 2 failed, 1 skipped, 0 xfail"))

        let json = ConformanceReport.json(Self.outcomes, plugin: "p")
        let skipped = try #require(json["checks"]?.arrayValue?[1])
        #expect(skipped["result"] == "skip" && skipped["reason"] == .string(Self.skipReason))
        #expect(skipped["failure"] == nil)
        #expect(json["summary"]?["skipped"] == 1 && json["summary"]?["passed"] == 1)

        let xml = ConformanceReport.junit(Self.outcomes, plugin: "p")
        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.skipped.map { $0["message"] } == [Self.skipReason])
        #expect(collector.failures.count == 2 && collector.root["skipped"] == "1")
    }

    @Test func aBrokenTransportIsNamedAndCounted() throws {
        let summary = ConformanceSummary(Self.outcomes)
        #expect(summary.breaches == [.flooding: 1] && summary.failed == 2)
        #expect(summary.breachLine == "the plugin broke the transport in 1 failing check(s): 1 flooding")
        #expect(ConformanceReport.text(Self.outcomes, plugin: "p").contains(summary.breachLine!))
        let json = ConformanceReport.json(Self.outcomes, plugin: "p")
        #expect(json["checks"]?.arrayValue?[2]["breach"] == "flooding")
        #expect(json["checks"]?.arrayValue?[3]["breach"] == nil)
        #expect(json["summary"]?["breaches"]?["flooding"] == 1)
        #expect(ConformanceSummary(Array(Self.outcomes.prefix(2))).breachLine == nil)
    }

    @Test func aRunStoppedEarlySaysSo() {
        let stop = ConformanceReport.Stop(reason: "--fail-fast: c.rule (seed) failed", notRun: 120)
        let text = ConformanceReport.text(Self.outcomes, plugin: "p", stopped: stop)
        #expect(text.contains("stopped early (--fail-fast: c.rule (seed) failed): 120 check(s) not run"))
        let json = ConformanceReport.json(Self.outcomes, plugin: "p", stopped: stop)
        #expect(json["summary"]?["notRun"] == 120)
        #expect(json["summary"]?["stoppedBecause"] == "--fail-fast: c.rule (seed) failed")
        #expect(ConformanceReport.json(Self.outcomes, plugin: "p")["summary"]?["notRun"] == nil)
    }

    /// Off a terminal: a line every tenth of the run (at least 10 checks), one per
    /// failure, one when 10 s passed since the last, and one at the end.
    @Test func progressOffATerminal() {
        var progress = ConformanceProgress(total: 30, terminal: false)
        var lines: [Int: String] = [:]
        for k in 1...30 {
            let o =
                k == 7
                ? Self.outcome("c.rule", .failed, reason: "reply\n1\u{1B}[2J differs") : Self.outcome("a", .passed)
            let elapsed: Duration = k == 25 ? .seconds(40) : .seconds(k)
            if let line = progress.record(o, elapsed: elapsed) { lines[k] = line }
        }
        #expect(lines.keys.sorted() == [7, 10, 20, 25, 30])
        #expect(lines[7] == "[7/30] FAIL c.rule (seed): reply\\u{a}1\\u{1b}[2J differs")
        #expect(lines[10] == "[10/30] 9 passed, 1 failed, 0 skipped, 10 s so far")
        #expect(lines[30] == "[30/30] 29 passed, 1 failed, 0 skipped, 30 s so far")
    }

    @Test func progressOnATerminalRedrawsEveryCheck() {
        var progress = ConformanceProgress(total: 3, terminal: true)
        let lines = (1...3).compactMap { _ in progress.record(Self.outcome("a.b", .passed), elapsed: .zero) }
        #expect(lines == ["[1/3] passed a.b (seed)", "[2/3] passed a.b (seed)", "[3/3] passed a.b (seed)"])
        #expect(
            ConformanceProgress.start(runs: 3, plugin: "/p", jobs: 2, timeout: "10 s")
                == "running 3 check(s) against /p, 2 at a time, each within 10 s")
    }
}
