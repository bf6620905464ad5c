import Foundation
import HostProtocol
import PluginHost

/// Realistic device days (``DeviceDays``) played as the system level plays its cases,
/// invariants checked after every step, to measure simulated time per wall second.
/// Nothing is shrunk: what is measured is how fast cases play.
struct DeviceDayLevel: FuzzLevel {
    let system: SystemLevel
    /// Days per case.
    let days: Int

    var seedSalt: UInt64 { system.seedSalt }
    func makeRunner(deadline: FuzzDeadline) -> SystemCaseRunner { system.makeRunner(deadline: deadline) }

    func generate(seed: UInt64) -> SystemCase {
        var g = DeviceDays(seed: seed)
        return g.next(days: days)
    }

    func run(_ c: SystemCase, on runner: inout SystemCaseRunner) -> SystemCase.Outcome { system.run(c, on: &runner) }
    func steps(_ c: SystemCase, _ outcome: SystemCase.Outcome) -> Int { system.steps(c, outcome) }
    func simulatedSeconds(_ outcome: SystemCase.Outcome) -> Double { system.simulatedSeconds(outcome) }

    /// None: a violation is not shrunk here (the plugin is reset before the next case).
    func signatures(_ outcome: SystemCase.Outcome) -> [String] {
        if outcome.error != nil { return ["run failed"] }
        return []
    }

    /// None: a run that could not be played to its end is counted (``SystemFuzzer/Speed/failedRuns``).
    func failure(_ outcome: SystemCase.Outcome, on runner: SystemCaseRunner) -> PluginFailure? { nil }

    func recover(_ runner: inout SystemCaseRunner, after outcome: SystemCase.Outcome) {
        system.recover(&runner, after: outcome)
    }

    func close(_ runner: SystemCaseRunner) { system.close(runner) }

    /// A run that could not be completed is reported as such, unshrunk.
    func shrink(
        _ c: SystemCase, signature: String, caseSeed: UInt64, on runner: inout SystemCaseRunner,
        stop: @escaping @Sendable () -> Bool
    ) -> SystemFuzzer.Finding {
        SystemFuzzer.Finding(
            signature: signature, caseSeed: caseSeed, originalSteps: c.actions.count, systemCase: c,
            outcome: SystemCase.Outcome(violations: []), shrinkAttempts: 0)
    }
}

extension SystemFuzzer {
    /// How fast the system level covers simulated time.
    public struct Speed: Sendable {
        /// Wall seconds.
        public var seconds: Double
        /// Jobs (plugins) that played days at once.
        public var jobs: Int
        /// Cases (device days, grouped `days` to a case) played.
        public var cases: Int
        /// Actions played.
        public var steps: Int
        /// Virtual seconds covered by all jobs together.
        public var simulatedSeconds: Double
        /// Cases that could not be played to their end.
        public var failedRuns: Int

        /// Simulated device-days per wall second.
        public var deviceDaysPerSecond: Double { simulatedSeconds / 86_400 / max(seconds, 1e-9) }
        /// Actions per wall second.
        public var stepsPerSecond: Double { Double(steps) / max(seconds, 1e-9) }
    }

    /// Plays realistic device days (``DeviceDays``, `days` to a case) under
    /// `configuration` (its plugin should run `--os ios`) for `configuration.seconds`
    /// on `configuration.jobs` jobs, and reports the simulated time covered.
    public static func measureDeviceDays(_ configuration: Configuration, days: Int = 7) -> Speed {
        let level = DeviceDayLevel(system: SystemLevel(configuration: configuration), days: days)
        let limits = FuzzLimits(
            seed: configuration.seed, runs: configuration.runs, seconds: configuration.seconds,
            jobs: configuration.jobs)
        let loop = FuzzLoop(level: level, limits: limits, progress: FuzzProgress(quiet: true))
        let started = Date()
        let failed = (try? loop.run())?.count ?? loop.findings.count
        let (cases, steps) = loop.totals
        return Speed(
            seconds: Date().timeIntervalSince(started), jobs: configuration.jobs, cases: cases, steps: steps,
            simulatedSeconds: loop.simulatedSeconds, failedRuns: failed)
    }
}
