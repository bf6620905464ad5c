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
        run(runs, progress: progress, stopWhen: nil).outcomes
    }

    /// What a run did: the outcomes of the pairs run, in list order, and why it
    /// stopped early, if it did.
    package struct Run: Sendable {
        /// The outcomes, in list order (the pairs not run are missing).
        package let outcomes: [CheckOutcome]
        /// Why the run stopped before the end (from `stopWhen`), or nil.
        package let stoppedBecause: String?
        /// How many pairs were not run.
        package let notRun: Int
    }

    /// Runs the pairs until `stopWhen` gives a reason to stop (it sees each outcome as
    /// it comes, serially): then no further pair starts, and those running finish.
    /// `progress` is called after each pair finishes (serially), with how many have
    /// finished and the total.
    package func run(
        _ runs: [(ConformanceCheck, Profile)], progress: (@Sendable (Int, Int, CheckOutcome) -> Void)? = nil,
        stopWhen: (@Sendable (CheckOutcome) -> String?)?
    ) -> Run {
        struct Shared {
            var next = 0
            var finished = 0
            var stoppedBecause: String?
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
                        guard s.next < work.count, s.stoppedBecause == nil else { return nil }
                        defer { s.next += 1 }
                        return s.next
                    }
                    guard let index else { break }
                    let outcome = runner.run(work[index].check, profile: work[index].profile)
                    shared.withLock { s in
                        s.outcomes[index] = outcome
                        s.finished += 1
                        progress?(s.finished, work.count, outcome)
                        if s.stoppedBecause == nil { s.stoppedBecause = stopWhen?(outcome) }
                    }
                }
                done.signal()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
        return shared.withLock { s in
            let outcomes = s.outcomes.compactMap { $0 }
            return Run(outcomes: outcomes, stoppedBecause: s.stoppedBecause, notRun: runs.count - outcomes.count)
        }
    }

    private struct RunItem: Sendable {
        let check: ConformanceCheck
        let profile: Profile
    }
}
