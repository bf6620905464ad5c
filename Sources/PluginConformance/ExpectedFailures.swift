import HostProtocol

/// A baseline of checks a plugin is known to fail (`--expected-failures FILE`), as
/// the MCP conformance suite keeps one: a listed check that fails becomes `xfail`,
/// a listed check that passes becomes `stale` (the baseline is out of date, and
/// the run fails), a skipped check stays skipped.
///
/// The file is JSON or a small YAML subset (see `ExpectedFailures+Parse.swift` and
/// `docs/conformance.md`):
///
/// ```yaml
/// - jsonrpc.batch.mixed
/// - check: profile.strict.superseded-rejected
///   profile: strict
///   reason: superseded invokes are dropped
/// ```
package struct ExpectedFailures: Sendable, Equatable {
    /// One entry: a check, and optionally the one profile it applies to.
    package struct Entry: Sendable, Equatable {
        /// The check's name.
        package let check: String
        /// The profile, or nil for every profile the check runs under.
        package let profile: Profile?
        /// Why it is expected to fail (shown in reports).
        package let reason: String?

        /// Creates an entry.
        package init(check: String, profile: Profile? = nil, reason: String? = nil) {
            self.check = check
            self.profile = profile
            self.reason = reason
        }

        /// Whether two entries cover a run in common: the same check, and the same
        /// profile or one of them for every profile.
        func overlaps(_ other: Entry) -> Bool {
            check == other.check && (profile == nil || other.profile == nil || profile == other.profile)
        }

        /// Whether the entry covers this outcome.
        func covers(_ outcome: CheckOutcome) -> Bool {
            check == outcome.name && (profile == nil || profile == outcome.profile)
        }
    }

    /// A file that is not a baseline, with the line (1-based; 0 for the whole file).
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        /// Where.
        package let line: Int
        /// What is wrong.
        package let message: String

        package var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// The entries, in file order.
    package let entries: [Entry]

    /// A baseline of these entries.
    package init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// Reads a baseline (JSON when the text starts with `[` or `{`, else YAML; lines may
    /// end in `\r\n`); every entry must name a check of `known`, and no two entries may
    /// cover the same check and profile.
    package static func parse(_ text: String, known: Set<String>) throws(ParseError) -> ExpectedFailures {
        let text = text.first == "\u{FEFF}" ? String(text.dropFirst()) : text
        let first = text.unicodeScalars.first { !" \t\r\n".unicodeScalars.contains($0) }
        let items = first == "[" || first == "{" ? try jsonItems(text) : try YAMLList.items(text)
        var entries: [(entry: Entry, place: String)] = []
        for (index, item) in items.enumerated() {
            let entry = try entry(item.fields, line: item.line)
            guard known.contains(entry.check) else {
                throw ParseError(line: item.line, message: "no check is named \"\(entry.check)\" (see --list)")
            }
            // A YAML entry is found by its line, a JSON one by its place in the array.
            let place = item.line > 0 ? "line \(item.line)" : "entry \(index + 1)"
            if let earlier = entries.first(where: { $0.entry.overlaps(entry) }) {
                let profile = entry.profile.map { " (\($0.rawValue))" } ?? ""
                throw ParseError(
                    line: item.line,
                    message: (item.line > 0 ? "" : "\(place): ")
                        + "\"\(entry.check)\"\(profile) is listed twice (first at \(earlier.place))")
            }
            entries.append((entry, place))
        }
        return ExpectedFailures(entries.map(\.entry))
    }

    private static func entry(_ fields: [String: String], line: Int) throws(ParseError) -> Entry {
        if let unknown = fields.keys.sorted().first(where: { !["check", "profile", "reason"].contains($0) }) {
            throw ParseError(line: line, message: "unknown key \"\(unknown)\" (an entry has check, profile and reason)")
        }
        guard let check = fields["check"], !check.isEmpty else {
            throw ParseError(line: line, message: "an entry needs a check id")
        }
        var profile: Profile?
        if let name = fields["profile"] {
            guard let p = Profile(rawValue: name) else {
                throw ParseError(line: line, message: "unknown profile \"\(name)\" (seed or strict)")
            }
            profile = p
        }
        return Entry(check: check, profile: profile, reason: fields["reason"])
    }

    /// The entries of a JSON baseline: an array (or `{"expected-failures": [...]}`) of
    /// check ids and `{check, profile, reason}` objects.
    private static func jsonItems(_ text: String) throws(ParseError) -> [YAMLList.Item] {
        guard let value = try? JSONParser.parse(Array(text.utf8)) else {
            throw ParseError(line: 0, message: "not valid JSON")
        }
        guard let list = value.arrayValue ?? value["expected-failures"]?.arrayValue else {
            throw ParseError(line: 0, message: "expected an array of entries (or {\"expected-failures\": [...]})")
        }
        var items: [YAMLList.Item] = []
        for (i, element) in list.enumerated() {
            if let id = element.stringValue {
                items.append(.init(line: 0, fields: ["check": id]))
                continue
            }
            guard let object = element.objectValue else {
                throw ParseError(line: 0, message: "entry \(i + 1) is neither a check id nor an object")
            }
            var fields: [String: String] = [:]
            for (key, v) in object {
                guard let s = v.stringValue else {
                    throw ParseError(line: 0, message: "entry \(i + 1): \"\(key)\" must be a string")
                }
                fields[key] = s
            }
            items.append(.init(line: 0, fields: fields))
        }
        return items
    }

    /// The outcomes with the baseline applied: listed failures become `xfail`, listed
    /// passes become `stale`; everything else is unchanged.
    package func apply(to outcomes: [CheckOutcome]) -> [CheckOutcome] {
        outcomes.map { outcome in
            guard let entry = entries.first(where: { $0.covers(outcome) }) else { return outcome }
            var o = outcome
            switch outcome.status {
            case .failed:
                o.status = .xfail
                o.reason = "expected failure" + (entry.reason.map { " (\($0))" } ?? "") + ": " + (outcome.reason ?? "")
            case .passed:
                o.status = .stale
                o.reason = "listed in --expected-failures but passed: remove the entry from the baseline"
            case .skipped, .xfail, .stale:
                break
            }
            return o
        }
    }
}
