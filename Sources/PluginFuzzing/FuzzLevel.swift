import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// One level of fuzzing as the shared loop (``FuzzLoop``) sees it: how a case is
/// drawn from its seed, run against a plugin, named when it fails, and shrunk.
protocol FuzzLevel: Sendable {
    /// A case, drawn from a seed.
    associatedtype Case
    /// What running a case showed.
    associatedtype Outcome
    /// A distinct failure, shrunk.
    associatedtype Finding: FuzzFinding
    /// What a job runs its cases against: one plugin (process or engine), reused
    /// from case to case and through shrinking.
    associatedtype Runner

    /// Mixed into the run's seed to give each case its own.
    var seedSalt: UInt64 { get }
    /// Starts a job's plugin; what it runs stops at the deadline's hard stop.
    func makeRunner(deadline: FuzzDeadline) throws(PluginFailure) -> Runner
    /// The case a seed stands for.
    func generate(seed: UInt64) -> Case
    /// Runs a case from a fresh plugin state.
    func run(_ c: Case, on runner: inout Runner) -> Outcome
    /// How many steps the run took (for steps per second).
    func steps(_ c: Case, _ outcome: Outcome) -> Int
    /// How much virtual time the run covered, in seconds (for simulated time per second).
    func simulatedSeconds(_ outcome: Outcome) -> Double
    /// Each distinct failure the outcome shows, in order; empty when it passed.
    func signatures(_ outcome: Outcome) -> [String]
    /// The plugin's failure, when the case could not be judged (it is not a finding).
    func failure(_ outcome: Outcome, on runner: Runner) -> PluginFailure?
    /// Brings the runner back to a known state after a failing case.
    func recover(_ runner: inout Runner, after outcome: Outcome) throws(PluginFailure)
    /// A small case that still fails with `signature`, described; no attempt starts once
    /// `stop` says so (the run's time is up, or another job failed).
    func shrink(
        _ c: Case, signature: String, caseSeed: UInt64, on runner: inout Runner,
        stop: @escaping @Sendable () -> Bool
    ) throws(PluginFailure) -> Finding
    /// Ends a job's plugin.
    func close(_ runner: Runner)
    /// Guided search (issue 25): the coverage points the run reached (``FuzzCorpus``); nil
    /// when the level does not guide its search (the default).
    func coverage(_ outcome: Outcome) -> [UInt64]?
    /// Guided search: a case made from a kept one, drawn from `seed` (the default: the case
    /// the seed stands for).
    func mutate(_ parent: Case, seed: UInt64) -> Case
    /// Guided search: the case's first `steps` steps, as it keeps them (the default: the whole case).
    func prefix(_ c: Case, steps: Int) -> Case
}

extension FuzzLevel {
    func coverage(_ outcome: Outcome) -> [UInt64]? { nil }

    func mutate(_ parent: Case, seed: UInt64) -> Case { generate(seed: seed) }

    func prefix(_ c: Case, steps: Int) -> Case { c }
}
