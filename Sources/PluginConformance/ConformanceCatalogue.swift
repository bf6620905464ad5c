import HostProtocol

/// Every conformance check, one per rule of sections 1 to 6 of the contract, in
/// catalogue order. `docs/conformance.md` is generated from this list.
package enum ConformanceCatalogue {
    /// All checks, by contract section.
    package static let all: [ConformanceCheck] =
        framing + jsonRPC + determinism + invokes + dispatch + tasks + scheduler + autoLaunch + session + events
        + numbers

    /// The check with this name.
    package static func named(_ name: String) -> ConformanceCheck? { all.first { $0.name == name } }

    /// The checks whose name matches `pattern`: a glob when it contains `*`
    /// (matched against the whole name), else a substring.
    package static func matching(_ pattern: String?) -> [ConformanceCheck] {
        guard let pattern, !pattern.isEmpty else { return all }
        return all.filter { matches(name: $0.name, pattern: pattern) }
    }

    /// Substring match, or a `*` glob matched against the whole name.
    static func matches(name: String, pattern: String) -> Bool {
        guard pattern.contains("*") else { return name.contains(pattern) }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(name)
        for (i, part) in parts.enumerated() {
            if i == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if i == parts.count - 1 {
                return part.isEmpty || rest.hasSuffix(part)
            } else if !part.isEmpty {
                guard let r = rest.range(of: part) else { return false }
                rest = rest[r.upperBound...]
            }
        }
        return rest.isEmpty
    }

    /// The (check, profile) pairs to run under a profile choice (nil means both).
    package static func runs(of checks: [ConformanceCheck], profile: Profile?) -> [(ConformanceCheck, Profile)] {
        checks.flatMap { check in
            check.profiles.filter { profile == nil || $0 == profile }.map { (check, $0) }
        }
    }

    // MARK: Shared script pieces

    /// An LSP frame around a body, as raw text.
    static func lsp(_ body: String, header: String = "Content-Length") -> String {
        "\(header): \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// `startKeepalive` with the given params; with events on it is answered by
    /// both submissions and then its result.
    static func startKeepalive(_ id: ID, _ params: String? = nil) -> String {
        request(id, "startKeepalive", params)
    }

    /// `os/launch` of a kind.
    static func launch(_ id: ID, _ kind: Kind) -> String { request(id, "os/launch", identifier(kind)) }

    /// `os/advanceTime` by `seconds` (a JSON number).
    static func advance(_ id: ID, _ seconds: String) -> String {
        request(id, "os/advanceTime", #"{"seconds":\#(seconds)}"#)
    }

    /// `plugin/state`.
    static func state(_ id: ID) -> String { request(id, "plugin/state") }

    /// A batch reply: the responses as one JSON array.
    static func batch(_ replies: [Pattern]) -> Pattern { .array(replies) }
}
