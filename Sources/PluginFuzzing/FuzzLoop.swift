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
    /// Why a job cannot run at all.
    associatedtype Failure: Error

    /// Mixed into the run's seed to give each case its own.
    var seedSalt: UInt64 { get }
    /// Starts a job's plugin.
    func makeRunner() throws(Failure) -> Runner
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
    /// Brings the runner back to a known state after a failing case.
    func recover(_ runner: inout Runner, after outcome: Outcome) throws(Failure)
    /// A small case that still fails with `signature`, described.
    func shrink(_ c: Case, signature: String, caseSeed: UInt64, on runner: inout Runner) -> Finding
    /// Ends a job's plugin.
    func close(_ runner: Runner)
}

extension FuzzLevel {
    /// A level whose cases do not play out in virtual time covers none.
    func simulatedSeconds(_ outcome: Outcome) -> Double { 0 }
}

/// A finding as the loop and the commands see it: named, reproducible from its
/// case seed, and written as a trace.
public protocol FuzzFinding: Sendable {
    /// What failed, in a line: findings are grouped by it.
    var signature: String { get }
    /// The seed of the case it was shrunk from.
    var caseSeed: UInt64 { get }
    /// How many steps the failing case had, and its shrunk form has.
    var originalSteps: Int { get }
    var shrunkSteps: Int { get }
    /// The finding as a replayable trace file.
    func trace(profile: Profile, seed: UInt64, pluginArguments: [String]) -> TraceFile
}

/// When a finding was found and how long shrinking it took, in wall seconds.
public struct FindingTiming: Sendable, Hashable {
    /// From the start of the run to the end of the first case that showed it.
    public var foundAfter: Double
    /// Shrinking it to the finding kept.
    public var shrinkSeconds: Double

    /// A timing.
    public init(foundAfter: Double, shrinkSeconds: Double) {
        self.foundAfter = foundAfter
        self.shrinkSeconds = shrinkSeconds
    }
}

/// The run's seed, when to stop, and how many jobs.
struct FuzzLimits: Sendable {
    var seed: UInt64
    /// Stop after this many cases (nil: use `seconds`).
    var runs: Int?
    /// Stop after this many seconds of wall time.
    var seconds: Double
    var jobs: Int
    /// Stop once this many distinct findings are known (nil: never).
    var stopAfterFindings: Int? = nil
}

/// The fuzzing loop both levels share: jobs on threads of their own, each with one
/// plugin for all its cases; cases claimed in order until the run or time limit (or
/// enough findings); progress; every new signature shrunk once, the first kept.
///
/// Case `i` is drawn from a seed that depends only on the run's seed and `i`, so a
/// seed gives the same cases, and (with one job) the same findings and traces.
final class FuzzLoop<Level: FuzzLevel>: Sendable {
    private struct State {
        var cases = 0
        var steps = 0
        var simulatedSeconds = 0.0
        var findings: [String: Level.Finding] = [:]
        var timings: [String: FindingTiming] = [:]
    }

    let level: Level
    let limits: FuzzLimits
    let progress: FuzzProgress
    private let state = Mutex(State())

    init(level: Level, limits: FuzzLimits, progress: FuzzProgress) {
        self.level = level
        self.limits = limits
        self.progress = progress
    }

    /// Cases and steps run so far.
    var totals: (cases: Int, steps: Int) { state.withLock { ($0.cases, $0.steps) } }

    /// When each finding kept was found, and how long shrinking it took, by signature.
    var timings: [String: FindingTiming] { state.withLock { $0.timings } }

    /// The virtual time the cases run so far covered, in seconds.
    var simulatedSeconds: Double { state.withLock { $0.simulatedSeconds } }

    /// The seed of case `index` (a case can be regenerated from it alone).
    func caseSeed(_ index: Int) -> UInt64 {
        var mix = SplitMix64(seed: limits.seed ^ (UInt64(index) &* level.seedSalt))
        return mix.next()
    }

    /// Runs every job to its end; returns one finding per signature, by signature.
    func run() throws(Level.Failure) -> [Level.Finding] {
        let errors = Mutex<[Level.Failure]>([])
        let start = Date()
        FuzzJobs.run(limits.jobs) { [self] _ in
            do throws(Level.Failure) {
                try runJob(start: start)
            } catch {
                errors.withLock { $0.append(error) }
            }
        }
        if let first = errors.withLock({ $0.first }) { throw first }
        return state.withLock { Array($0.findings.values) }.sorted { $0.signature < $1.signature }
    }

    private func claimCase() -> Int? {
        state.withLock { s -> Int? in
            if let runs = limits.runs, s.cases >= runs { return nil }
            if let enough = limits.stopAfterFindings, s.findings.count >= enough { return nil }
            s.cases += 1
            return s.cases - 1
        }
    }

    private func runJob(start: Date) throws(Level.Failure) {
        var runner = try level.makeRunner()
        defer { level.close(runner) }
        while limits.runs != nil || Date().timeIntervalSince(start) < limits.seconds {
            guard let index = claimCase() else { break }
            let seed = caseSeed(index)
            let c = level.generate(seed: seed)
            let outcome = level.run(c, on: &runner)
            let foundAfter = Date().timeIntervalSince(start)
            let totals = state.withLock { s in
                s.steps += level.steps(c, outcome)
                s.simulatedSeconds += level.simulatedSeconds(outcome)
                return (s.cases, s.steps, s.findings.count)
            }
            progress.update(cases: totals.0, steps: totals.1, findings: totals.2, states: nil)
            let signatures = level.signatures(outcome)
            guard !signatures.isEmpty else { continue }
            let seenAt = Date().timeIntervalSince(start)
            try level.recover(&runner, after: outcome)
            for signature in signatures where state.withLock({ $0.findings[signature] == nil }) {
                let shrinkStart = Date()
                let finding = level.shrink(c, signature: signature, caseSeed: seed, on: &runner)
                let timing = FindingTiming(foundAfter: foundAfter, shrinkSeconds: Date().timeIntervalSince(shrinkStart))
                let isNew = state.withLock { s in
                    guard s.findings[signature] == nil else { return false }
                    s.findings[signature] = finding
                    s.timings[signature] = timing
                    return true
                }
                if isNew { progress.finding(signature, seed: seed, after: seenAt) }
            }
        }
    }
}
