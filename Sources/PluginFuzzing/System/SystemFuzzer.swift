import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// System-level fuzzing: the emulated Rust side with a sample service against
/// the plugin on one virtual clock, random actions and job schedules, the
/// part-D invariants checked after every step; each distinct violation shrunk
/// and written as a trace.
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
        /// `ios`: each case runs its plugin under `--os ios` with its own seed, and draws from the ios alphabet.
        public var os: OSMode

        public init(
            plugin: PluginProcess.Options, behaviour: HostBehaviour, seed: UInt64, runs: Int?, seconds: Double,
            maxSteps: Int, jobs: Int, os: OSMode = .manual
        ) {
            self.os = os
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
        var scenario = g.scenario()
        let ios = configuration.os == .ios
        if ios { g.ios(&scenario) }
        return SystemCase(scenario: scenario, actions: g.actions(max: configuration.maxSteps, ios: ios))
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
            for signature in outcome.signatures where state.withLock({ $0.findings[signature] == nil }) {
                let finding = shrink(c, signature: signature, seed: seed)
                let isNew = state.withLock { s in
                    guard s.findings[signature] == nil else { return false }
                    s.findings[signature] = finding
                    return true
                }
                if isNew { progress.finding(signature, seed: seed) }
            }
        }
    }

    /// Delta debugging over the actions, then simpler times and services.
    func shrink(_ original: SystemCase, signature: String, seed: UInt64) -> Finding {
        var attempts = 0
        var current = original
        // Actions after the step where it first broke do not matter.
        if let step = original.run(plugin: configuration.plugin, behaviour: configuration.behaviour, stopAt: signature).first(signature)?.step {
            current.actions = Array(current.actions.prefix(step + 1))
        }
        /// The step where the candidate first breaks the same invariant for the same cause, if it does.
        func failingStep(_ c: SystemCase) -> Int? {
            attempts += 1
            return c.run(plugin: configuration.plugin, behaviour: configuration.behaviour, stopAt: signature).first(signature)?.step
        }
        func fails(_ c: SystemCase) -> Bool { failingStep(c) != nil }
        let scenario = current.scenario
        var ddminAttempts = 0
        current.actions = DeltaDebugging.minimize(current.actions, budget: 400, attempts: &ddminAttempts) { actions in
            fails(SystemCase(scenario: scenario, actions: actions))
        }
        // Simpler times: each advance halved, or made a whole number of seconds, while it still fails.
        for i in current.actions.indices {
            guard case .advance(let t) = current.actions[i] else { continue }
            for simpler in [VirtualTime(nanoseconds: t.nanoseconds / 2), VirtualTime(seconds: (t.seconds).rounded(.down))!] where simpler != t && simpler.nanoseconds > 0 {
                var candidate = current
                candidate.actions[i] = .advance(simpler)
                if attempts < 600, fails(candidate) {
                    current = candidate
                    break
                }
            }
        }
        // Fewer and simpler services, and the default schedule.
        while current.scenario.runs.count > 1, attempts < 600 {
            var candidate = current
            candidate.scenario.runs.removeLast()
            guard fails(candidate) else { break }
            current = candidate
        }
        if current.scenario.scheduleSeed != nil, attempts < 600 {
            var candidate = current
            candidate.scenario.scheduleSeed = nil
            if fails(candidate) { current = candidate }
        }
        // The app as its users write it: no start at launch.
        if current.scenario.restartAtLaunch, attempts < 600 {
            var candidate = current
            candidate.scenario.restartAtLaunch = false
            if fails(candidate) { current = candidate }
        }
        // The violation may now come earlier: nothing after it matters.
        if let step = failingStep(current), step + 1 < current.actions.count {
            var candidate = current
            candidate.actions = Array(current.actions.prefix(step + 1))
            if fails(candidate) { current = candidate }
        }
        let outcome = current.run(plugin: configuration.plugin, behaviour: configuration.behaviour, stopAt: signature)
        return Finding(signature: signature, caseSeed: seed, originalSteps: original.actions.count, systemCase: current, outcome: outcome, shrinkAttempts: attempts)
    }
}
