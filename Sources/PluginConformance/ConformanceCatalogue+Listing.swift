import Foundation
import HostProtocol

/// `plugin-host conformance --list`: the catalogue as text, JSON or Markdown.
extension ConformanceCatalogue {
    /// The formats of `--list`.
    package enum ListFormat: String, Sendable {
        /// One line per check: name, profiles, rule; then the counts.
        case text
        /// An array of `{name, section, rule, profiles, flags, requires, accepts}`.
        case json
        /// The page `docs/conformance.md`.
        case markdown
    }

    /// The catalogue of `checks` (whose `runs` are counted) in `format`.
    package static func listing(_ checks: [ConformanceCheck], runs: Int, format: ListFormat) -> String {
        switch format {
        case .markdown:
            return ConformanceCatalogueDoc.markdown(checks)
        case .json:
            return JSONValue.array(
                checks.map { c in
                    [
                        "name": .string(c.name), "section": .number(c.section), "rule": .string(c.rule),
                        "profiles": .array(c.profiles.map { .string($0.rawValue) }),
                        "flags": .array(c.flags.map { .string($0) }),
                        "requires": .array(c.requires.map { .string($0) }),
                        "accepts": .array(c.acceptance.map { .string($0) }),
                    ]
                }
            ).description
        case .text:
            let width = checks.map(\.name.count).max() ?? 0
            var lines = checks.map { c in
                c.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + c.profiles.map(\.rawValue).joined(separator: ",").padding(
                        toLength: 11, withPad: " ", startingAt: 0) + "  " + c.rule
            }
            lines.append("\(checks.count) checks, \(runs) runs")
            return lines.joined(separator: "\n")
        }
    }
}
