import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// Plugin-level fuzzing: random step sequences against a plugin (one process or
/// engine per job, reused across cases through `plugin/reset`, steps pipelined),
/// every reply compared with the ``ReferenceModel``; each distinct failure
/// shrunk and written as a trace. The loop is ``FuzzLoop``, shared with the system level.
public final class PluginFuzzer: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        /// How to start each job's plugin (a binary, or the engine in this process).
        public var plugin: PluginLauncher
        /// The plugin's profile, which the reference model follows too.
        public var profile: Profile
        /// The run's seed: the same seed gives the same cases.
        public var seed: UInt64
        /// Stop after this many cases (nil: use `seconds`).
        public var runs: Int?
        /// Stop after this many seconds of wall time.
        public var seconds: Double
        /// Longest case, in steps.
        public var maxSteps: Int
        /// Plugins and fuzzing threads in parallel.
        public var jobs: Int
        /// Stop once this many distinct findings are known (nil: never).
        public var stopAfterFindings: Int?
        /// The plugin's `--dispatch` (its arguments must say the same): under `tauri` cases
        /// contain racing batches with schedules (``StepGenerator``, ``InterleavingCheck``).
        public var dispatch: DispatchMode
        /// Seconds one case's replies may take before the plugin counts as hung (a
        /// ``PluginFailure``, not a finding; ``PluginDriver/defaultTimeout`` unless given):
        /// generous, since a loaded machine or a sanitizer build is slow.
        public var replyTimeout: Double
        /// What each job's driver holds from its plugin.
        public var limits: PeerLimits

        /// A configuration.
        public init(
            plugin: PluginLauncher, profile: Profile, seed: UInt64, runs: Int?, seconds: Double, maxSteps: Int,
            jobs: Int, stopAfterFindings: Int? = nil, dispatch: DispatchMode = .serial,
            replyTimeout: Double = PluginDriver.defaultTimeout, limits: PeerLimits = .default
        ) {
            self.limits = limits
            self.dispatch = dispatch
            self.replyTimeout = replyTimeout
            self.stopAfterFindings = stopAfterFindings
            self.plugin = plugin
            self.profile = profile
            self.seed = seed
            self.runs = runs
            self.seconds = seconds
            self.maxSteps = maxSteps
            self.jobs = jobs
        }
    }

    /// A distinct failure, shrunk.
    public struct Finding: FuzzFinding {
        /// What kind of disagreement with the model it is (findings are grouped by it).
        public let signature: String
        /// The seed of the case that first showed it.
        public let caseSeed: UInt64
        /// The case's length before shrinking.
        public let originalSteps: Int
        /// The shrunk steps.
        public let steps: [FuzzStep]
        /// What the shrunk steps gave: the frames, and the first mismatch.
        public let outcome: PluginCase.Outcome
        /// Candidates tried while shrinking.
        public let shrinkAttempts: Int
        /// The plugin's `--dispatch` the finding was made under.
        public var dispatch: DispatchMode = .serial

        /// The shrunk case's length.
        public var shrunkSteps: Int { steps.count }
    }

    /// What it runs.
    public let configuration: Configuration
    private let loop: FuzzLoop<PluginLevel>

    /// Creates a fuzzer.
    public init(configuration: Configuration, progress: FuzzProgress) {
        self.configuration = configuration
        let c = configuration
        let limits = FuzzLimits(
            seed: c.seed, runs: c.runs, seconds: c.seconds, jobs: c.jobs, stopAfterFindings: c.stopAfterFindings)
        loop = FuzzLoop(level: PluginLevel(configuration: c), limits: limits, progress: progress)
    }

    /// Runs all jobs to the end (the time limit bounds the whole run, shrinking and a
    /// hung plugin included: ``FuzzDeadline``); returns the findings, one per signature.
    /// Throws when the plugin could not be started or failed (``findings`` then keeps
    /// what was found before).
    public func run() throws(PluginFailure) -> [Finding] { try loop.run() }

    /// The findings kept so far, one per signature.
    public var findings: [Finding] { loop.findings }

    /// The seed of case `index` (a case can be regenerated from it alone).
    public func caseSeed(_ index: Int) -> UInt64 { loop.caseSeed(index) }

    /// The steps of a case, from its seed.
    public func generateCase(seed: UInt64) -> [FuzzStep] { loop.level.generate(seed: seed).steps }

    /// Cases and steps run so far.
    public var totals: (cases: Int, steps: Int) { loop.totals }

    /// When each finding was found and how long shrinking it took, by signature.
    public var timings: [String: FindingTiming] { loop.timings }

    /// Shrinks a failing sequence against `driver` (restarting it whenever a
    /// candidate leaves the plugin in an unknown state) and describes the result. Under
    /// `--dispatch tauri` the batches' schedules are first frozen to what the plugin took,
    /// shrunk with the steps (``Shrinker``), and frozen again in the result. No candidate
    /// is tried once `stop` says so; the plugin failing on a candidate is thrown.
    package static func shrink(
        _ steps: [FuzzStep], signature: String, caseSeed: UInt64, profile: Profile, plugin options: PluginLauncher,
        driver: PluginDriver, resetID: Int, dispatch: DispatchMode = .serial, stop: @escaping () -> Bool = { false }
    ) throws(PluginDriver.DriverError) -> (finding: Finding, driver: PluginDriver, resetID: Int) {
        let box = DriverHolder(driver)
        var counter = resetID
        var failure: PluginDriver.DriverError?
        var best: (steps: [FuzzStep], outcome: PluginCase.Outcome)?
        func run(_ candidate: [FuzzStep]) -> PluginCase.Outcome? {
            guard failure == nil else { return nil }
            counter += 1
            let outcome = PluginCase(steps: candidate, dispatch: dispatch).run(
                on: box.driver, profile: profile, resetID: counter)
            if let error = outcome.error {
                failure = error
                return nil
            }
            if outcome.signatures.contains(signature) { best = (candidate, outcome) }
            if outcome.signature != nil {
                do throws(PluginDriver.DriverError) {
                    try box.restart(options)
                } catch {
                    failure = error
                }
            }
            return outcome
        }
        func fail(_ error: PluginDriver.DriverError) -> PluginDriver.DriverError {
            box.driver.close()
            return error
        }
        var start = steps
        if dispatch == .tauri {
            guard let first = run(steps) else { throw fail(failure!) }
            start = PluginCase(steps: steps, dispatch: dispatch).frozen(first)
        }
        var shrinker = Shrinker(budget: 1500) { !stop() && run($0)?.signatures.contains(signature) == true }
        let small = shrinker.shrink(start)
        if let failure { throw fail(failure) }
        // The last candidate that still failed is the result: its outcome is the final one.
        let final: PluginCase.Outcome
        if let best, best.steps == small {
            final = best.outcome
        } else if let outcome = run(small) {
            final = outcome
        } else {
            throw fail(failure!)
        }
        let finding = Finding(
            signature: signature, caseSeed: caseSeed, originalSteps: steps.count,
            steps: PluginCase(steps: small, dispatch: dispatch).frozen(final), outcome: final,
            shrinkAttempts: shrinker.attempts, dispatch: dispatch)
        return (finding, box.driver, counter)
    }
}

/// Holds the driver a shrinker uses, so that it can be restarted after a failure.
private final class DriverHolder {
    var driver: PluginDriver
    init(_ driver: PluginDriver) { self.driver = driver }
    func restart(_ options: PluginLauncher) throws(PluginDriver.DriverError) {
        driver.close()
        driver = try PluginDriver(
            plugin: options, timeout: driver.timeout, limits: driver.limits, deadline: driver.deadline)
    }
}
