import HostProtocol

/// The result of one check under one profile.
package struct CheckOutcome: Sendable {
    /// How a check ended.
    package enum Status: String, Sendable, Hashable {
        /// The plugin conforms.
        case passed
        /// The plugin does not conform.
        case failed
        /// Not judged: the plugin does not offer an extension the check needs.
        case skipped
        /// Failed, and listed in `--expected-failures`.
        case xfail
        /// Passed, but listed in `--expected-failures`: the baseline is out of date (fails the run).
        case stale
    }

    /// How a plugin broke the transport in a check (so that the check could not judge
    /// the rule): beyond a rule of the contract, it is what `plugin-host` reports with
    /// exit status 3.
    package enum Breach: String, Sendable, Hashable, CaseIterable {
        /// It wrote more than the suite holds (``PeerLimits``), or a frame past its size.
        case flooding
        /// It wrote nothing that was awaited before the check's time limit.
        case timedOut = "timed out"
        /// It stopped reading its stdin.
        case stoppedReading = "stopped reading"
        /// Its output ended, or it exited, in the middle of the check.
        case ended = "ended early"
    }

    /// The failing step: what was sent and what came back.
    struct Failure: Sendable {
        /// 1-based step number (0: the whole script) and how many steps the script has.
        let step: Int
        let steps: Int
        /// The inputs of the failing step (and of the preceding steps without a
        /// barrier), as readable text.
        let sent: [String]
        /// The replies expected (patterns, in the catalogue's notation).
        let expected: [String]
        /// The replies received (compact JSON).
        let actual: [String]
        /// Which expected reply each actual one matches (for the diff), as (expected, actual) index pairs.
        var matched: [(Int, Int)] = []
        /// Whether other replies were allowed around the expected ones (no diff is shown then).
        var amongOthers = false
        /// What else went wrong (a hang, an early exit, the exit status), if anything.
        let note: String?
        /// The last lines the plugin wrote to stderr.
        var stderrTail: String
    }

    /// The check's name.
    package let name: String
    /// The profile it ran under.
    package let profile: Profile
    /// The contract section.
    let section: Int
    /// The rule text.
    let rule: String
    /// How the check ended.
    package var status: Status
    /// Whether the check passed (and was not expected to fail).
    package var passed: Bool { status == .passed }
    /// One line saying why it failed or was skipped.
    var reason: String?
    /// Details of the failure.
    let failure: Failure?
    /// Wall-clock seconds the check took.
    let seconds: Double
    /// How many frames were validated against the OpenRPC document.
    package var framesValidated = 0
    /// How the plugin broke the transport, when that is why the check failed.
    package var breach: Breach?

    /// The readable report of a failure: check, reason, sent messages, expected,
    /// actual and their diff.
    var failureReport: String {
        guard let f = failure else { return "" }
        var lines = ["FAIL \(name) [\(profile.rawValue)]: \(reason ?? "failed")"]
        lines.append("  rule: \(rule)")
        lines.append(
            f.step == 0 ? "  the whole script (\(f.steps) steps), sent:" : "  step \(f.step) of \(f.steps), sent:")
        lines += f.sent.map { "    → " + $0 }
        if let note = f.note { lines.append("  note: \(note)") }
        // Short lists are shown whole, then diffed; long ones only as a diff with context.
        if f.expected.count + f.actual.count <= 16 {
            lines.append("  expected:")
            lines += f.expected.isEmpty ? ["    (nothing)"] : f.expected.map { "    " + ConformanceText.shorten($0) }
            lines.append("  actual:")
            lines += f.actual.isEmpty ? ["    (nothing)"] : f.actual.map { "    " + ConformanceText.shorten($0) }
        }
        if !f.amongOthers, !(f.expected.count == f.actual.count && f.matched.count == f.expected.count) {
            lines.append("  diff (- expected, + actual):")
            lines += ConformanceText.diff(expected: f.expected, actual: f.actual, matched: f.matched, context: 3)
                .map { "    " + $0 }
        }
        let tail = f.stderrTail.split(separator: "\n").suffix(5)
        if !tail.isEmpty {
            lines.append("  plugin stderr (last lines):")
            lines += tail.map { "    " + ConformanceText.shorten(String($0), limit: 200) }
        }
        return lines.joined(separator: "\n")
    }
}
