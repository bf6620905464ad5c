import Dispatch
import Foundation
import HostProtocol
import Synchronization

/// Runs a list of (check, profile) pairs against a plugin, several at a time,
/// each in its own fresh plugin process; outcomes come back in list order.
package struct ConformanceSuite: Sendable {
    /// The plugin under test.
    let plugin: PluginUnderTest
    /// How many checks run at once (each is a plugin process and a few threads).
    let jobs: Int

    /// Creates a suite runner.
    package init(plugin: PluginUnderTest, jobs: Int = ConformanceSuite.defaultJobs) {
        self.plugin = plugin
        self.jobs = max(1, jobs)
    }

    /// Twice the number of cores: a check spends most of its time waiting on pipes.
    package static var defaultJobs: Int { max(2, 2 * ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs every pair; `progress` is called after each one finishes (serially),
    /// with how many have finished and the total.
    package func run(
        _ runs: [(ConformanceCheck, Profile)], progress: (@Sendable (Int, Int, CheckOutcome) -> Void)? = nil
    ) -> [CheckOutcome] {
        struct Shared {
            var next = 0
            var finished = 0
            var outcomes: [CheckOutcome?]
        }
        let shared = Mutex(Shared(outcomes: Array(repeating: nil, count: runs.count)))
        let done = DispatchSemaphore(value: 0)
        let runner = CheckRunner(plugin: plugin)
        let workers = min(jobs, max(1, runs.count))
        let work = runs.map { RunItem(check: $0.0, profile: $0.1) }
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    let index: Int? = shared.withLock { s in
                        guard s.next < work.count else { return nil }
                        defer { s.next += 1 }
                        return s.next
                    }
                    guard let index else { break }
                    let outcome = runner.run(work[index].check, profile: work[index].profile)
                    shared.withLock { s in
                        s.outcomes[index] = outcome
                        s.finished += 1
                        progress?(s.finished, work.count, outcome)
                    }
                }
                done.signal()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
        return shared.withLock { $0.outcomes.compactMap { $0 } }
    }

    private struct RunItem: Sendable {
        let check: ConformanceCheck
        let profile: Profile
    }
}

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

    /// Counts the outcomes.
    package init(_ outcomes: [CheckOutcome]) {
        total = outcomes.count
        passed = outcomes.count { $0.status == .passed }
        stale = outcomes.count { $0.status == .stale }
        failed = outcomes.count { $0.status == .failed } + stale
        skipped = outcomes.count { $0.status == .skipped }
        xfail = outcomes.count { $0.status == .xfail }
        framesValidated = outcomes.reduce(0) { $0 + $1.framesValidated }
    }

    /// `N passed, M failed, K skipped, X xfail` (and `, S stale` when there are stale entries).
    package var line: String {
        "\(passed) passed, \(failed) failed, \(skipped) skipped, \(xfail) xfail"
            + (stale > 0 ? " (\(stale) stale)" : "")
    }
}
