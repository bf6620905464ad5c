import Foundation
import HostProtocol
import PluginHost
import Synchronization

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
    /// Stop after this many seconds of wall time (when `runs` is nil): a bound on the
    /// whole run, shrinking and a hung plugin included (``FuzzDeadline``).
    var seconds: Double
    var jobs: Int
    /// Stop once this many distinct findings are known (nil: never).
    var stopAfterFindings: Int? = nil
}

/// The fuzzing loop both levels share: jobs on threads of their own, each with one
/// plugin for all its cases; cases claimed in order until the run or time limit (or
/// enough findings, or the plugin failing); progress; every new signature shrunk once,
/// the first kept.
///
/// Case `i` is drawn from a seed that depends only on the run's seed and `i`, so a
/// seed gives the same cases, and (with one job) the same findings and traces. A level that
/// guides its search (``FuzzLevel/coverage(_:)``) makes some cases from the job's
/// ``FuzzCorpus`` instead: with one job still a function of the run's seed.
final class FuzzLoop<Level: FuzzLevel>: Sendable {
    private struct State {
        var cases = 0
        var casesRun = 0
        var steps = 0
        var simulatedSeconds = 0.0
        var findings: [String: Level.Finding] = [:]
        var timings: [String: FindingTiming] = [:]
        /// When each signature was first seen, shrunk and kept or not (a case can show two
        /// and the time run out while the first is shrunk).
        var firstSeen: [String: Double] = [:]
        var failure: PluginFailure?
        /// Cases kept by guided search, all jobs' corpora together.
        var kept = 0
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

    /// Cases run to their end, and their steps, so far.
    var totals: (cases: Int, steps: Int) { state.withLock { ($0.casesRun, $0.steps) } }

    /// When each finding kept was found, and how long shrinking it took, by signature.
    var timings: [String: FindingTiming] { state.withLock { $0.timings } }

    /// When each signature was first seen (from the run's start to the end of the case that
    /// showed it), kept as a finding or not.
    var firstSeen: [String: Double] { state.withLock { $0.firstSeen } }

    /// The virtual time the cases run so far covered, in seconds.
    var simulatedSeconds: Double { state.withLock { $0.simulatedSeconds } }

    /// Cases kept by guided search so far, all jobs together (0 when the level does not guide).
    var kept: Int { state.withLock { $0.kept } }

    /// The findings kept so far, one per signature, by signature (after a failure: those
    /// found before it).
    var findings: [Level.Finding] {
        state.withLock { Array($0.findings.values) }.sorted { $0.signature < $1.signature }
    }

    /// The seed of case `index` (a case can be regenerated from it alone).
    func caseSeed(_ index: Int) -> UInt64 {
        var mix = SplitMix64(seed: limits.seed ^ (UInt64(index) &* level.seedSalt))
        return mix.next()
    }

    /// Runs every job to its end; returns one finding per signature, by signature.
    /// Throws the first failure of the plugin (``findings`` keeps what was found before it).
    func run() throws(PluginFailure) -> [Level.Finding] {
        let start = Date()
        let deadline = limits.runs == nil ? FuzzDeadline(seconds: limits.seconds, from: start) : .none
        progress.start()
        FuzzJobs.run(limits.jobs) { [self] _ in runJob(start: start, deadline: deadline) }
        progress.stop()
        if let failure = state.withLock({ $0.failure }) { throw failure }
        return findings
    }

    private func claimCase(_ deadline: FuzzDeadline) -> Int? {
        state.withLock { s -> Int? in
            // The first case runs whatever the time: a run that judged nothing says nothing.
            if s.failure != nil || (deadline.passed && s.cases > 0) { return nil }
            if let runs = limits.runs, s.cases >= runs { return nil }
            if let enough = limits.stopAfterFindings, s.findings.count >= enough { return nil }
            s.cases += 1
            return s.cases - 1
        }
    }

    /// Keeps the run's first failure: every job stops at its next case.
    private func record(_ failure: PluginFailure) {
        state.withLock { s in
            guard s.failure == nil else { return }
            var f = failure
            // A plugin that served cases before did start: it failed later.
            if s.casesRun > 0 { f.kind = .misbehaved }
            s.failure = f
        }
    }

    private func runJob(start: Date, deadline: FuzzDeadline) {
        var runner: Level.Runner
        do {
            runner = try level.makeRunner(deadline: deadline)
        } catch {
            record(error)
            return
        }
        defer { level.close(runner) }
        let stop: @Sendable () -> Bool = { [self] in deadline.passed || state.withLock { $0.failure != nil } }
        var corpus = FuzzCorpus<Level.Case>()
        while let index = claimCase(deadline) {
            let seed = caseSeed(index)
            let c = corpus.parent(seed: seed).map { level.mutate($0, seed: seed) } ?? level.generate(seed: seed)
            let outcome = level.run(c, on: &runner)
            if var failure = level.failure(outcome, on: runner) {
                failure.caseIndex = index
                failure.caseSeed = seed
                record(failure)
                return
            }
            if let coverage = level.coverage(outcome), corpus.consider(c, coverage: coverage, prefix: level.prefix) {
                state.withLock { $0.kept += 1 }
            }
            let foundAfter = Date().timeIntervalSince(start)
            let totals = state.withLock { s in
                s.casesRun += 1
                s.steps += level.steps(c, outcome)
                s.simulatedSeconds += level.simulatedSeconds(outcome)
                return (s.casesRun, s.steps, s.findings.count)
            }
            progress.update(cases: totals.0, steps: totals.1, findings: totals.2, states: nil)
            let signatures = level.signatures(outcome)
            guard !signatures.isEmpty else { continue }
            state.withLock { s in
                for signature in signatures where s.firstSeen[signature] == nil {
                    s.firstSeen[signature] = foundAfter
                }
            }
            do throws(PluginFailure) {
                try level.recover(&runner, after: outcome)
                for signature in signatures where state.withLock({ $0.findings[signature] == nil }) && !stop() {
                    let shrinkStart = Date()
                    let finding = try level.shrink(c, signature: signature, caseSeed: seed, on: &runner, stop: stop)
                    keep(finding, seed: seed, foundAfter: foundAfter, shrinkStart: shrinkStart)
                }
            } catch {
                var failure = error
                failure.whileShrinking = true
                record(failure)
                return
            }
        }
    }

    private func keep(_ finding: Level.Finding, seed: UInt64, foundAfter: Double, shrinkStart: Date) {
        let timing = FindingTiming(foundAfter: foundAfter, shrinkSeconds: Date().timeIntervalSince(shrinkStart))
        let count = state.withLock { s -> Int? in
            guard s.findings[finding.signature] == nil else { return nil }
            s.findings[finding.signature] = finding
            s.timings[finding.signature] = timing
            return s.findings.count
        }
        guard let count else { return }
        progress.finding(finding.signature, seed: seed, after: foundAfter)
        progress.update(cases: 0, steps: 0, findings: count, states: nil)
    }
}
