import Foundation
import HostProtocol

/// The three result formats of `plugin-host conformance`: a text table, JSON,
/// and JUnit XML.
package enum ConformanceReport {
    /// The text report: a table (check, profile, result), the failures with what
    /// was sent and a diff, then the summary (`N passed, M failed, K skipped, X xfail`).
    package static func text(_ outcomes: [CheckOutcome], plugin: String, stopped: Stop? = nil) -> String {
        let needs = Dictionary(ConformanceCatalogue.all.map { ($0.name, $0.requires) }, uniquingKeysWith: { a, _ in a })
        let nameWidth = max(5, outcomes.map(\.name.count).max() ?? 0)
        var lines = ["plugin-host conformance: \(plugin)", ""]
        lines.append("check".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  profile  result")
        lines.append(String(repeating: "-", count: nameWidth) + "  -------  ------")
        for o in outcomes {
            let note: String
            switch o.status {
            case .skipped, .xfail, .stale: note = "    " + (o.reason ?? "")
            case .passed, .failed:
                note =
                    needs[o.name].map { $0.isEmpty ? "" : "    (needs the \($0.joined(separator: ", ")) extension)" }
                    ?? ""
            }
            lines.append(
                o.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + o.profile.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + label(o.status)
                    + note)
        }
        let failures = outcomes.filter { $0.status == .failed }
        if !failures.isEmpty {
            lines.append("")
            lines.append("failures:")
            for f in failures {
                lines.append("")
                lines.append(f.failureReport)
            }
        }
        lines.append("")
        let summary = ConformanceSummary(outcomes)
        if let breach = summary.breachLine { lines.append(breach) }
        if let stopped { lines.append(stopped.line) }
        lines.append(summary.line)
        return lines.joined(separator: "\n")
    }

    /// A run stopped before its end (`--fail-fast`): why, and how many pairs were not run.
    package struct Stop: Sendable {
        /// Why it stopped.
        package let reason: String
        /// How many pairs were not run.
        package let notRun: Int

        /// Creates a stop.
        package init(reason: String, notRun: Int) {
            self.reason = reason
            self.notRun = notRun
        }

        /// `stopped early (…): 120 check(s) not run`.
        package var line: String { "stopped early (\(reason)): \(notRun) check(s) not run" }
    }

    /// The word for a status in the text table.
    private static func label(_ status: CheckOutcome.Status) -> String {
        switch status {
        case .passed: "pass"
        case .failed: "FAIL"
        case .skipped: "skip"
        case .xfail: "xfail"
        case .stale: "STALE"
        }
    }

    /// The JSON report:
    /// `{plugin, summary: {total, passed, failed, skipped, xfail, stale, framesValidated, breaches}, checks: [...]}`
    /// (and `notRun`, `stoppedBecause` in the summary of a run stopped early); each
    /// check's `result` is `pass`, `fail`, `skip`, `xfail` or `stale`, with its `reason`
    /// when not `pass`, and its `breach` (`flooding`, `timed out`, `stopped reading`,
    /// `ended early`) when the plugin broke the transport.
    package static func json(_ outcomes: [CheckOutcome], plugin: String, stopped: Stop? = nil) -> JSONValue {
        let summary = ConformanceSummary(outcomes)
        let checks: [JSONValue] = outcomes.map { o in
            var entry: [String: JSONValue] = [
                "name": .string(o.name), "profile": .string(o.profile.rawValue), "section": .number(o.section),
                "rule": .string(o.rule), "result": .string(resultWord(o.status)),
                "seconds": .number((o.seconds * 1000).rounded() / 1000), "framesValidated": .number(o.framesValidated),
            ]
            if let reason = o.reason { entry["reason"] = .string(reason) }
            if let breach = o.breach { entry["breach"] = .string(breach.rawValue) }
            if let requires = ConformanceCatalogue.named(o.name)?.requires, !requires.isEmpty {
                entry["requires"] = .array(requires.map { .string($0) })
            }
            if let f = o.failure {
                var failure: [String: JSONValue] = [
                    "step": .number(f.step), "steps": .number(f.steps),
                    "sent": .array(f.sent.map { .string($0) }),
                    "expected": .array(f.expected.map { .string($0) }),
                    "actual": .array(f.actual.map { .string($0) }),
                    "diff": .array(
                        ConformanceText.diff(expected: f.expected, actual: f.actual, matched: f.matched).map {
                            .string($0)
                        }),
                ]
                if let note = f.note { failure["note"] = .string(note) }
                if !f.stderrTail.isEmpty { failure["stderr"] = .string(f.stderrTail) }
                entry["failure"] = .object(failure)
            }
            return .object(entry)
        }
        var totals: [String: JSONValue] = [
            "total": .number(summary.total), "passed": .number(summary.passed), "failed": .number(summary.failed),
            "skipped": .number(summary.skipped), "xfail": .number(summary.xfail), "stale": .number(summary.stale),
            "framesValidated": .number(summary.framesValidated),
            "breaches": .object(Dictionary(uniqueKeysWithValues: summary.breaches.map { ($0.rawValue, .number($1)) })),
        ]
        if let stopped {
            totals["notRun"] = .number(stopped.notRun)
            totals["stoppedBecause"] = .string(stopped.reason)
        }
        return ["plugin": .string(plugin), "summary": .object(totals), "checks": .array(checks)]
    }

    /// The `result` of a check in the JSON report.
    private static func resultWord(_ status: CheckOutcome.Status) -> String {
        switch status {
        case .passed: "pass"
        case .failed: "fail"
        case .skipped: "skip"
        case .xfail: "xfail"
        case .stale: "stale"
        }
    }

    /// JUnit XML: one `<testsuite>` per profile, one `<testcase>` per check, a
    /// `<failure>` with the readable report for each failing check, `<skipped>` for a
    /// skipped check and for an expected failure (`type="xfail"`, as pytest writes
    /// it), and a `<failure type="StaleExpectedFailure">` for a stale baseline entry.
    package static func junit(_ outcomes: [CheckOutcome], plugin: String) -> String {
        let summary = ConformanceSummary(outcomes)
        let total = outcomes.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="plugin-host conformance" tests="\#(summary.total)" failures="\#(summary.failed)" "#
            + #"errors="0" skipped="\#(summary.skipped + summary.xfail)" time="\#(seconds(total))">"#
            + "\n"
        for profile in Profile.allCases {
            let group = outcomes.filter { $0.profile == profile }
            guard !group.isEmpty else { continue }
            let s = ConformanceSummary(group)
            xml +=
                #"  <testsuite name="conformance.\#(profile.rawValue)" tests="\#(s.total)" failures="\#(s.failed)" "#
                + #"errors="0" skipped="\#(s.skipped + s.xfail)" "#
                + #"time="\#(seconds(group.reduce(0) { $0 + $1.seconds }))">"#
                + "\n"
            xml +=
                #"    <properties><property name="plugin" value="\#(escape(plugin))"/><property name="profile" "#
                + #"value="\#(profile.rawValue)"/></properties>"#
                + "\n"
            for o in group {
                let family = o.name.split(separator: ".").first.map(String.init) ?? o.name
                let open =
                    #"    <testcase classname="conformance.\#(profile.rawValue).\#(escape(family))" "#
                    + #"name="\#(escape(o.name))" time="\#(seconds(o.seconds))""#
                let reason = escape(o.reason ?? "")
                switch o.status {
                case .passed:
                    xml += open + "/>\n"
                case .failed:
                    xml += open + ">\n"
                    xml +=
                        #"      <failure message="\#(escape(o.reason ?? "failed"))" type="ConformanceFailure">"#
                        + escape(o.failureReport, attribute: false) + "</failure>\n"
                    xml += "    </testcase>\n"
                case .skipped:
                    xml += open + ">\n" + #"      <skipped message="\#(reason)"/>"# + "\n    </testcase>\n"
                case .xfail:
                    xml += open + ">\n" + #"      <skipped type="xfail" message="\#(reason)"/>"# + "\n    </testcase>\n"
                case .stale:
                    xml +=
                        open + ">\n" + #"      <failure message="\#(reason)" type="StaleExpectedFailure"/>"#
                        + "\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// Escapes text for an XML attribute (or, with `attribute: false`, element
    /// content, where quotes stay as they are); characters XML 1.0 cannot carry
    /// become U+FFFD.
    static func escape(_ s: String, attribute: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
