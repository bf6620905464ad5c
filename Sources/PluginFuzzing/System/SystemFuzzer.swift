import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// System-level fuzzing: the emulated Rust side with a sample service against
/// the plugin on one virtual clock, random actions, pools and race orders, the
/// part-D invariants checked after every step; each distinct violation shrunk
/// (``SystemShrinker``) and written as a trace.
public final class SystemFuzzer: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        public var plugin: PluginProcess.Options
        public var behaviour: HostBehaviour
        public var seed: UInt64
        public var runs: Int?
        public var seconds: Double
        public var maxSteps: Int
        public var jobs: Int

        public init(plugin: PluginProcess.Options, behaviour: HostBehaviour, seed: UInt64, runs: Int?, seconds: Double, maxSteps: Int, jobs: Int) {
            self.plugin = plugin
            self.behaviour = behaviour
            self.seed = seed
            self.runs = runs
            self.seconds = seconds
            self.maxSteps = maxSteps
            self.jobs = jobs
        }
    }

    /// A distinct violation, shrunk.
    public struct Finding: Sendable {
        public let signature: String
        public let caseSeed: UInt64
        public let originalSteps: Int
        public let systemCase: SystemCase
        public let outcome: SystemCase.Outcome
        public let shrinkAttempts: Int
    }

    public let configuration: Configuration
    let progress: FuzzProgress
    private let state = Mutex<(cases: Int, steps: Int, findings: [String: Finding])>((0, 0, [:]))

    public init(configuration: Configuration, progress: FuzzProgress) {
        self.configuration = configuration
        self.progress = progress
    }

    /// Cases and steps run so far.
    public var totals: (cases: Int, steps: Int) { state.withLock { ($0.cases, $0.steps) } }

    /// The case a seed stands for.
    public func generateCase(seed: UInt64) -> SystemCase {
        var g = SystemCaseGenerator(seed: seed)
        let scenario = g.scenario()
        return SystemCase(scenario: scenario, actions: g.actions(max: configuration.maxSteps))
    }

    /// Runs every job to its end; returns one finding per signature.
    public func run() -> [Finding] {
        let start = Date()
        FuzzJobs.run(configuration.jobs) { [self] job in runJob(job, start: start) }
        return state.withLock { Array($0.findings.values) }.sorted { $0.signature < $1.signature }
    }

    private func runJob(_ job: Int, start: Date) {
        while configuration.runs != nil || Date().timeIntervalSince(start) < configuration.seconds {
            let index: Int? = state.withLock { s in
                if let runs = configuration.runs, s.cases >= runs { return nil }
                s.cases += 1
                return s.cases - 1
            }
            guard let index else { break }
            var mix = SplitMix64(seed: configuration.seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
            let seed = mix.next()
            let c = generateCase(seed: seed)
            let outcome = c.run(plugin: configuration.plugin, behaviour: configuration.behaviour)
            let totals = state.withLock { s in
                s.steps += outcome.timeline.count
                return (s.cases, s.steps, s.findings.count)
            }
            progress.update(cases: totals.0, steps: totals.1, findings: totals.2, states: nil)
            let seenAt = Date().timeIntervalSince(start)
            for signature in outcome.signatures where state.withLock({ $0.findings[signature] == nil }) {
                let finding = shrink(c, signature: signature, seed: seed)
                let isNew = state.withLock { s in
                    guard s.findings[signature] == nil else { return false }
                    s.findings[signature] = finding
                    return true
                }
                if isNew { progress.finding(signature, seed: seed, after: seenAt) }
            }
        }
    }

    /// Shrinks `original` (see ``SystemShrinker``) into a finding.
    func shrink(_ original: SystemCase, signature: String, seed: UInt64) -> Finding {
        let shrinker = SystemShrinker(
            plugin: configuration.plugin, behaviour: configuration.behaviour, signature: signature)
        let (shrunk, outcome, attempts) = shrinker.shrink(original)
        return Finding(
            signature: signature, caseSeed: seed, originalSteps: original.actions.count, systemCase: shrunk,
            outcome: outcome, shrinkAttempts: attempts)
    }
}
