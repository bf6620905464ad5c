import HostProtocol

/// The progress lines `plugin-host conformance` writes on stderr while it runs,
/// whether or not stderr is a terminal: on a terminal one line redrawn after every
/// check; elsewhere (a CI log, a pipe) a line every ``every`` checks, one for each
/// failing check as it fails, and one at least every ``quietLimit`` while checks
/// finish, so that a log never stays silent while the suite waits on a plugin
/// (each check ends within its time limit, so lines keep coming).
///
/// A value type fed by the caller, clock included (the caller passes the time since
/// the run started), so that it is tested without waiting.
package struct ConformanceProgress: Sendable {
    /// How many pairs the run has.
    package let total: Int
    /// Whether stderr is a terminal (one line, redrawn).
    package let terminal: Bool
    /// A line after this many checks (a tenth of the run, at least 10).
    package let every: Int
    /// A line at least this often while checks finish.
    package static let quietLimit: Duration = .seconds(10)
    private var counts: [CheckOutcome.Status: Int] = [:]
    private var done = 0
    private var lastLine: Duration = .zero

    /// Progress over `total` pairs.
    package init(total: Int, terminal: Bool) {
        self.total = total
        self.terminal = terminal
        every = max(10, total / 10)
    }

    /// The first line: what runs, how, and how long a check may take.
    package static func start(
        runs: Int, plugin: String, jobs: Int, timeout: String
    ) -> String {
        "running \(runs) check(s) against \(TerminalText.oneLine(plugin, limit: 300)), \(jobs) at a time, "
            + "each within \(timeout)"
    }

    /// Counts an outcome (`elapsed`: since the run started); returns the line to show
    /// for it, or nil when none is due (never nil on a terminal).
    package mutating func record(_ outcome: CheckOutcome, elapsed: Duration) -> String? {
        done += 1
        counts[outcome.status, default: 0] += 1
        let head = "[\(done)/\(total)]"
        if terminal {
            return "\(head) \(outcome.status.rawValue) \(outcome.name) (\(outcome.profile.rawValue))"
        }
        let failed = outcome.status == .failed
        guard failed || done % every == 0 || done == total || elapsed - lastLine >= Self.quietLimit else {
            return nil
        }
        lastLine = elapsed
        if failed {
            let reason = TerminalText.oneLine(outcome.reason ?? "failed", limit: 200)
            return "\(head) FAIL \(outcome.name) (\(outcome.profile.rawValue)): \(reason)"
        }
        return "\(head) \(tally), \(ConformanceText.seconds(elapsed.seconds)) so far"
    }

    /// `12 passed, 1 failed, 0 skipped` so far.
    private var tally: String {
        "\(counts[.passed, default: 0]) passed, \(counts[.failed, default: 0]) failed, "
            + "\(counts[.skipped, default: 0]) skipped"
    }
}
