import Dispatch
import Foundation
import HostProtocol
import Synchronization

/// Counts over a list of outcomes.
package struct ConformanceSummary: Sendable, Equatable {
    /// Checks run (one per check and profile).
    let total: Int
    /// How many passed.
    package let passed: Int
    /// How many failed, stale baseline entries included (both fail the run).
    package let failed: Int
    /// How many were skipped (an extension the plugin does not offer).
    package let skipped: Int
    /// How many failed as `--expected-failures` said they would.
    package let xfail: Int
    /// How many `--expected-failures` entries passed (counted in ``failed`` too).
    package let stale: Int
    /// Frames validated against the OpenRPC document, over all checks.
    package let framesValidated: Int
    /// How many failed because the plugin broke the transport, by how (counted in
    /// ``failed`` too).
    package let breaches: [CheckOutcome.Breach: Int]

    /// Counts the outcomes.
    package init(_ outcomes: [CheckOutcome]) {
        total = outcomes.count
        passed = outcomes.count { $0.status == .passed }
        stale = outcomes.count { $0.status == .stale }
        failed = outcomes.count { $0.status == .failed } + stale
        skipped = outcomes.count { $0.status == .skipped }
        xfail = outcomes.count { $0.status == .xfail }
        framesValidated = outcomes.reduce(0) { $0 + $1.framesValidated }
        var breaches: [CheckOutcome.Breach: Int] = [:]
        for o in outcomes where o.status == .failed { if let b = o.breach { breaches[b, default: 0] += 1 } }
        self.breaches = breaches
    }

    /// `the plugin broke the transport in 3 check(s): 2 flooding, 1 timed out`, or nil.
    package var breachLine: String? {
        let total = breaches.values.reduce(0, +)
        guard total > 0 else { return nil }
        let kinds = CheckOutcome.Breach.allCases.compactMap { b in breaches[b].map { "\($0) \(b.rawValue)" } }
        return "the plugin broke the transport in \(total) failing check(s): \(kinds.joined(separator: ", "))"
    }

    /// `N passed, M failed, K skipped, X xfail` (and `, S stale` when there are stale entries).
    package var line: String {
        "\(passed) passed, \(failed) failed, \(skipped) skipped, \(xfail) xfail"
            + (stale > 0 ? " (\(stale) stale)" : "")
    }
}
