import Foundation
import HostProtocol

/// The three result formats of `plugin-host conformance`: a text table, JSON,
/// and JUnit XML.
package enum ConformanceReport {
    /// The text report: a table (check, profile, result), the failures with what
    /// was sent and a diff, then `N passed, M failed`.
    package static func text(_ outcomes: [CheckOutcome], plugin: String) -> String {
        let needs = Dictionary(ConformanceCatalogue.all.map { ($0.name, $0.requires) }, uniquingKeysWith: { a, _ in a })
        let nameWidth = max(5, outcomes.map(\.name.count).max() ?? 0)
        var lines = ["plugin-host conformance: \(plugin)", ""]
        lines.append("check".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  profile  result")
        lines.append(String(repeating: "-", count: nameWidth) + "  -------  ------")
        for o in outcomes {
            lines.append(o.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + o.profile.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + (o.passed ? "pass" : "FAIL")
                + (needs[o.name].map { $0.isEmpty ? "" : "    (needs the \($0.joined(separator: ", ")) extension)" } ?? ""))
        }
        let failures = outcomes.filter { !$0.passed }
        if !failures.isEmpty {
            lines.append("")
            lines.append("failures:")
            for f in failures {
                lines.append("")
                lines.append(f.failureReport)
            }
        }
        lines.append("")
        lines.append(ConformanceSummary(outcomes).line)
        return lines.joined(separator: "\n")
    }

    /// The JSON report: `{plugin, summary: {total, passed, failed}, checks: [...]}`.
    package static func json(_ outcomes: [CheckOutcome], plugin: String) -> String {
        let summary = ConformanceSummary(outcomes)
        let checks: [JSONValue] = outcomes.map { o in
            var entry: [String: JSONValue] = [
                "name": .string(o.name), "profile": .string(o.profile.rawValue), "section": .number(o.section),
                "rule": .string(o.rule), "result": .string(o.passed ? "pass" : "fail"),
                "seconds": .number((o.seconds * 1000).rounded() / 1000),
            ]
            if let reason = o.reason { entry["reason"] = .string(reason) }
            if let requires = ConformanceCatalogue.named(o.name)?.requires, !requires.isEmpty {
                entry["requires"] = .array(requires.map { .string($0) })
            }
            if let f = o.failure {
                var failure: [String: JSONValue] = [
                    "step": .number(f.step), "steps": .number(f.steps),
                    "sent": .array(f.sent.map { .string($0) }),
                    "expected": .array(f.expected.map { .string($0) }),
                    "actual": .array(f.actual.map { .string($0) }),
                    "diff": .array(ConformanceText.diff(expected: f.expected, actual: f.actual).map { .string($0) }),
                ]
                if let note = f.note { failure["note"] = .string(note) }
                if !f.stderrTail.isEmpty { failure["stderr"] = .string(f.stderrTail) }
                entry["failure"] = .object(failure)
            }
            return .object(entry)
        }
        let report: JSONValue = [
            "plugin": .string(plugin),
            "summary": ["total": .number(summary.total), "passed": .number(summary.passed), "failed": .number(summary.failed)],
            "checks": .array(checks),
        ]
        return report.description
    }

    /// JUnit XML: one `<testsuite>` per profile, one `<testcase>` per check, a
    /// `<failure>` with the readable report for each failing check.
    package static func junit(_ outcomes: [CheckOutcome], plugin: String) -> String {
        let summary = ConformanceSummary(outcomes)
        let total = outcomes.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="plugin-host conformance" tests="\#(summary.total)" failures="\#(summary.failed)" errors="0" time="\#(seconds(total))">"# + "\n"
        for profile in Profile.allCases {
            let group = outcomes.filter { $0.profile == profile }
            guard !group.isEmpty else { continue }
            let s = ConformanceSummary(group)
            xml += #"  <testsuite name="conformance.\#(profile.rawValue)" tests="\#(s.total)" failures="\#(s.failed)" errors="0" skipped="0" time="\#(seconds(group.reduce(0) { $0 + $1.seconds }))">"# + "\n"
            xml += #"    <properties><property name="plugin" value="\#(escape(plugin))"/><property name="profile" value="\#(profile.rawValue)"/></properties>"# + "\n"
            for o in group {
                let family = o.name.split(separator: ".").first.map(String.init) ?? o.name
                let open = #"    <testcase classname="conformance.\#(profile.rawValue).\#(escape(family))" name="\#(escape(o.name))" time="\#(seconds(o.seconds))""#
                if o.passed {
                    xml += open + "/>\n"
                } else {
                    xml += open + ">\n"
                    xml += #"      <failure message="\#(escape(o.reason ?? "failed"))" type="ConformanceFailure">"# + escape(o.failureReport, attribute: false) + "</failure>\n"
                    xml += "    </testcase>\n"
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
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
