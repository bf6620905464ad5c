import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// Plugin-level fuzzing: random step sequences against real plugin processes
/// (one per job, reused across cases through `plugin/reset`, steps pipelined),
/// every reply compared with the ``ReferenceModel``; each distinct failure
/// shrunk and written as a trace.
public final class PluginFuzzer: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        public var plugin: PluginLauncher
        public var profile: Profile
        public var seed: UInt64
        /// Stop after this many cases (nil: use `seconds`).
        public var runs: Int?
        /// Stop after this many seconds of wall time.
        public var seconds: Double
        /// Longest case, in steps.
        public var maxSteps: Int
        public var jobs: Int
        /// Stop once this many distinct findings are known (nil: never).
        public var stopAfterFindings: Int?

        public init(plugin: PluginLauncher, profile: Profile, seed: UInt64, runs: Int?, seconds: Double, maxSteps: Int, jobs: Int, stopAfterFindings: Int? = nil) {
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
    public struct Finding: Sendable {
        public let signature: String
        public let caseSeed: UInt64
        public let originalSteps: Int
        public let steps: [FuzzStep]
        public let outcome: PluginCase.Outcome
        public let shrinkAttempts: Int
    }

    public let configuration: Configuration
    let progress: FuzzProgress
    private let state = Mutex<(cases: Int, steps: Int, findings: [String: Finding])>((0, 0, [:]))

    /// Creates a fuzzer.
    public init(configuration: Configuration, progress: FuzzProgress) {
        self.configuration = configuration
        self.progress = progress
    }

    /// Runs all jobs to the end; returns the findings, one per signature.
    public func run() throws(PluginDriver.DriverError) -> [Finding] {
        let errors = Mutex<[PluginDriver.DriverError]>([])
        let start = Date()
        FuzzJobs.run(configuration.jobs) { [self] job in
            do throws(PluginDriver.DriverError) {
                try runJob(job, start: start)
            } catch {
                errors.withLock { $0.append(error) }
            }
        }
        if let first = errors.withLock({ $0.first }) { throw first }
        return state.withLock { Array($0.findings.values) }.sorted { $0.signature < $1.signature }
    }

    /// The seed of case `index` (a case can be regenerated from it alone).
    public func caseSeed(_ index: Int) -> UInt64 {
        var mix = SplitMix64(seed: configuration.seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        return mix.next()
    }

    /// The steps of a case, from its seed.
    public func generateCase(seed: UInt64) -> [FuzzStep] { generate(seed: seed).steps }

    /// The steps of a case and the model's prediction for each, from its seed.
    func generate(seed: UInt64) -> (steps: [FuzzStep], expected: [[JSONValue]]) {
        var rng = SplitMix64(seed: seed)
        let count = 1 + rng.below(configuration.maxSteps)
        var generator = StepGenerator(seed: rng.next())
        var model = ReferenceModel(profile: configuration.profile)
        var steps: [FuzzStep] = []
        var expected: [[JSONValue]] = []
        steps.reserveCapacity(count)
        expected.reserveCapacity(count)
        for _ in 0..<count {
            let step = generator.next(model: model)
            expected.append(model.apply(step.input))
            steps.append(step)
        }
        return (steps, expected)
    }

    private func claimCase() -> Int? {
        state.withLock { s -> Int? in
            if let runs = configuration.runs, s.cases >= runs { return nil }
            if let enough = configuration.stopAfterFindings, s.findings.count >= enough { return nil }
            s.cases += 1
            return s.cases - 1
        }
    }

    private func runJob(_ job: Int, start: Date) throws(PluginDriver.DriverError) {
        var driver = try PluginDriver(plugin: configuration.plugin)
        defer { driver.close() }
        var resetID = 0
        while configuration.runs != nil || Date().timeIntervalSince(start) < configuration.seconds {
            guard let index = claimCase() else { break }
            let seed = caseSeed(index)
            let (steps, expected) = generate(seed: seed)
            resetID += 1
            let outcome = PluginCase(steps: steps).run(on: driver, profile: configuration.profile, resetID: resetID, expected: expected)
            let total = state.withLock { s in
                s.steps += steps.count
                return (s.cases, s.steps, s.findings.count)
            }
            progress.update(cases: total.0, steps: total.1, findings: total.2, states: nil)
            guard let signature = outcome.signature else { continue }
            // The plugin no longer matches the model: start both afresh.
            driver.close()
            driver = try PluginDriver(plugin: configuration.plugin)
            if state.withLock({ $0.findings[signature] != nil }) { continue }
            let finding = try shrink(steps, signature: signature, caseSeed: seed, driver: &driver, resetID: &resetID)
            state.withLock { s in
                if s.findings[signature] == nil { s.findings[signature] = finding }
            }
            progress.finding(finding.signature, seed: seed)
        }
    }

    private func shrink(_ steps: [FuzzStep], signature: String, caseSeed: UInt64, driver: inout PluginDriver, resetID: inout Int) throws(PluginDriver.DriverError) -> Finding {
        let result = PluginFuzzer.shrink(steps, signature: signature, caseSeed: caseSeed, profile: configuration.profile, plugin: configuration.plugin, driver: driver, resetID: resetID)
        driver = result.driver
        resetID = result.resetID
        return result.finding
    }

    /// Shrinks a failing sequence against `driver` (restarting it whenever a
    /// candidate leaves the plugin in an unknown state) and describes the result.
    package static func shrink(_ steps: [FuzzStep], signature: String, caseSeed: UInt64, profile: Profile, plugin options: PluginLauncher, driver: PluginDriver, resetID: Int) -> (finding: Finding, driver: PluginDriver, resetID: Int) {
        let box = DriverHolder(driver)
        var counter = resetID
        var shrinker = Shrinker(budget: 1500) { candidate in
            counter += 1
            let outcome = PluginCase(steps: candidate).run(on: box.driver, profile: profile, resetID: counter)
            if outcome.signature != nil { box.restart(options) }
            return outcome.signature == signature
        }
        let small = shrinker.shrink(steps)
        counter += 1
        let final = PluginCase(steps: small).run(on: box.driver, profile: profile, resetID: counter)
        box.restart(options)
        let finding = Finding(signature: signature, caseSeed: caseSeed, originalSteps: steps.count, steps: small, outcome: final, shrinkAttempts: shrinker.attempts)
        return (finding, box.driver, counter)
    }

    /// Cases and steps run so far.
    public var totals: (cases: Int, steps: Int) { state.withLock { ($0.cases, $0.steps) } }
}

/// Holds the driver a shrinker uses, so that it can be restarted after a failure.
private final class DriverHolder {
    var driver: PluginDriver
    init(_ driver: PluginDriver) { self.driver = driver }
    func restart(_ options: PluginLauncher) {
        driver.close()
        if let fresh = try? PluginDriver(plugin: options) { driver = fresh }
    }
}
