import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// The fuzzers' bounds, through their API, against `hostile-plugin`: a case's replies are
/// held within `PeerLimits`; the time limit ends a run whose plugin hangs; a plugin that
/// cannot start or fails is a `PluginFailure` with its stderr, never a finding.
@Suite(
    "Fuzzing bounds against hostile plugins",
    .timeLimit(SanitizerBuild.active ? TimeLimitTrait.Duration.minutes(30) : .minutes(2)))
struct FuzzBoundsTests {
    static func hostile(_ mode: String, _ arguments: [String] = ["--events"]) -> PluginLauncher {
        PluginLauncher(executable: Binaries.hostilePlugin, arguments: arguments, environment: ["HOSTILE_MODE": mode])
    }

    @Test func aCasesRepliesAreHeldWithinTheLimits() async throws {
        let outcome = try await onThread {
            var limits = PeerLimits.default
            limits.maxHeldFrames = 1000
            let driver = try PluginDriver(plugin: Self.hostile("flood"), limits: limits)
            defer { driver.close() }
            return PluginCase(steps: [.request(.int(1), PluginStateMethod.name)]).run(
                on: driver, profile: .seed, resetID: 1)
        }
        #expect(outcome.error?.code == .flooding)
        #expect(outcome.error?.description.contains("1,001 frames") == true, "\(String(describing: outcome.error))")
        #expect(outcome.signatures.isEmpty, "a flood is no finding")
    }

    /// One second of fuzzing against a plugin that never answers ends as the plugin
    /// failing, at the time limit plus the grace.
    @Test func theTimeLimitEndsARunWhosePluginHangs() async throws {
        let fuzzer = PluginFuzzer(
            configuration: .init(
                plugin: Self.hostile("silent"), profile: .seed, seed: 1, runs: nil, seconds: 1, maxSteps: 10, jobs: 1),
            progress: FuzzProgress(quiet: true))
        let system = SystemFuzzer(
            configuration: .init(
                plugin: Self.hostile("silent", ["--clock", "virtual"]), behaviour: .seed, seed: 1, runs: nil,
                seconds: 1, maxSteps: 10, jobs: 1),
            progress: FuzzProgress(quiet: true))
        for run in [{ _ = try fuzzer.run() }, { _ = try system.run() }] as [@Sendable () throws -> Void] {
            let failure = try await onThread { () -> PluginFailure? in
                do {
                    try run()
                    return nil
                } catch let failure as PluginFailure {
                    return failure
                }
            }
            #expect(failure?.kind == .misbehaved)
            #expect(failure?.reason.contains("ran out") == true, "\(String(describing: failure))")
            #expect(failure?.caseIndex == 0)
        }
    }

    @Test func aPluginThatCannotStartIsNoFinding() async throws {
        let fuzzer = PluginFuzzer(
            configuration: .init(
                plugin: Self.hostile("start-fail"), profile: .seed, seed: 1, runs: 5, seconds: 60, maxSteps: 10,
                jobs: 1),
            progress: FuzzProgress(quiet: true))
        let failure = try await onThread { () -> PluginFailure? in
            do {
                _ = try fuzzer.run()
                return nil
            } catch let failure as PluginFailure {
                return failure
            }
        }
        #expect(failure?.kind == .didNotStart)
        #expect(failure?.stderr.contains { $0.contains("cannot start: no licence file") } == true)
        #expect(fuzzer.findings.isEmpty && fuzzer.totals.cases == 0)
    }
}
