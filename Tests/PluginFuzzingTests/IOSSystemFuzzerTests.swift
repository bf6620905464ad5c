import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// The system-level fuzzer under `--os ios`: each new invariant is broken by a case the
/// fuzzer can find, and the strict host does not break it.
@Suite("System-level fuzzer --os ios")
struct IOSSystemFuzzerTests {
    static func plugin(_ profile: Profile, fault: String? = nil) -> PluginLauncher {
        PluginLauncher(
            executable: Binaries.plugin, arguments: ["--profile", profile.rawValue, "--os", "ios", "--os-seed", "7"],
            environment: fault.map { ["BSP_FAULT": $0] } ?? [:], stderrPrefix: "")
    }

    static func scenario(runSeconds: Double, restartAtLaunch: Bool = false, races: RacePlan = RacePlan())
        -> SystemScenario
    {
        var s = SystemScenario(
            runs: [
                .init(
                    initSeconds: 0, initFails: false, runSeconds: runSeconds, outcome: .success, onCancel: .throwError)
            ],
            safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 14_400, earliestMinutes: 15,
            races: races)
        s.restartAtLaunch = restartAtLaunch
        return s
    }

    func invariants(_ c: SystemCase, _ profile: Profile, fault: String? = nil) -> Set<Invariant> {
        let outcome = c.run(
            plugin: Self.plugin(profile, fault: fault), behaviour: profile == .strict ? .strict : .seed,
            answerTimeout: FuzzTestTimeouts.systemAnswer)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        return Set(outcome.violations.map(\.violation.invariant))
    }

    @Test func watchdogKillIsI1() async throws {
        // A run that ends at once leaves the requests pending (the seed host); iOS launches the processing
        // task, expires it at its budget (600 s); the plugin (fault) leaves completion to the host; nobody does it.
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 0),
            actions: [.start, .launch(.processing), .advance(.init(seconds: 700)!)])
        let seed = try await onThread { invariants(c, .seed, fault: "expiration-leaves-task") }
        #expect(seed.contains(.i1))
        // The strict host releases the keepalive when the run ends: nothing launches, nothing is killed.
        let strict = try await onThread { invariants(c, .strict, fault: "expiration-leaves-task") }
        #expect(!strict.contains(.i1))
        // With the real plugin the expiration handler completes the task itself: no kill.
        let real = try await onThread { invariants(c, .seed) }
        #expect(!real.contains(.i1))
    }

    @Test func droppedWaitAfterTerminationIsI2() async throws {
        // Run 1's completeBgTask is written before its listener's waitForCancel (completion-first), so run
        // 2's listener makes the seed plugin drop that invoke (D1); the termination answers what the
        // plugin holds, not the dropped call.
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 0, races: RacePlan(choices: [.listenerVsCompletion: [.second]])),
            actions: [.start, .start, .terminate(.system)])
        let seen = try await onThread { invariants(c, .seed) }
        #expect(seen.contains(.d1))
        #expect(seen.contains(.i2))
        #expect(try await onThread { !invariants(c, .strict).contains(.i2) })
    }

    @Test func silentNonResumeIsI3() async throws {
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 3600), actions: [.start, .terminate(.forceQuit), .openApp])
        #expect(try await onThread { invariants(c, .seed) }.contains(.i3))
        // The strict host says why; an app that starts the service at launch resumes it.
        #expect(try await onThread { !invariants(c, .strict).contains(.i3) })
        let restarting = SystemCase(
            scenario: Self.scenario(runSeconds: 3600, restartAtLaunch: true), actions: c.actions)
        #expect(try await onThread { !invariants(restarting, .seed).contains(.i3) })
        // A cold start into the background counts too.
        let cold = SystemCase(
            scenario: Self.scenario(runSeconds: 3600),
            actions: [
                .start, .policy(.init(refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0)),
                .terminate(.system), .advance(.init(seconds: 7200)!),
            ])
        #expect(try await onThread { invariants(cold, .seed) }.contains(.i3))
    }

    func fuzzer(_ profile: Profile, runs: Int) -> SystemFuzzer {
        SystemFuzzer(
            configuration: .init(
                plugin: Self.plugin(profile), behaviour: profile == .strict ? .strict : .seed, seed: 11, runs: runs,
                seconds: 600, maxSteps: 25, jobs: 2, os: .ios, answerTimeout: FuzzTestTimeouts.systemAnswer),
            progress: FuzzProgress(quiet: true))
    }

    @Test func fuzzerFindsTheNewInvariantsAndStrictNothing() async throws {
        let f = fuzzer(.seed, runs: 500)
        let findings = try await onThread { try f.run() }
        let found = Set(findings.compactMap { $0.violation?.invariant })
        #expect(found.isSuperset(of: [.i2, .i3]), "\(findings.map(\.signature))")
        for finding in findings where finding.violation?.invariant == .i3 || finding.violation?.invariant == .i2 {
            let actions = finding.systemCase.actions
            #expect(actions.count <= 5, "\(finding.signature): \(actions.map(\.summary))")
            let again = finding.systemCase.run(
                plugin: f.configuration.plugin, behaviour: .seed, stopAt: finding.signature)
            #expect(again.timeline == finding.outcome.timeline, "a system case must replay identically")
        }
        let strict = fuzzer(.strict, runs: 120)
        let none = try await onThread { try strict.run() }
        #expect(none.isEmpty, "\(none.map { "\($0.signature): \($0.explanation)" })")
    }

    @Test func iosTracesReplayThroughTheCLI() async throws {
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 3600), actions: [.start, .terminate(.forceQuit), .openApp])
        let outcome = try await onThread {
            c.run(plugin: Self.plugin(.seed), behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        let signature = try #require(outcome.violations.first { $0.violation.invariant == .i3 }?.violation.signature)
        let finding = SystemFuzzer.Finding(
            signature: signature, caseSeed: 0, originalSteps: 3, systemCase: c, outcome: outcome, shrinkAttempts: 0)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ios-trace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try finding.trace(
            profile: .seed, seed: 0,
            pluginArguments: ["--profile", "seed", "--clock", "virtual", "--os", "ios", "--os-seed", "7"]
        ).write(to: dir, name: "i3.jsonl")
        let r = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("identical"))
        #expect(r.stdout.contains("still broken after step 3: I3"))
    }
}
