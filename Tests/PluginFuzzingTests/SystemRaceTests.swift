import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// System cases with race choices: the thread leak and the pool's end are seen by
/// the invariants, shrinking keeps the orders that matter, traces replay them.
@Suite("System fuzzing: races and threads")
struct SystemRaceTests {
    let plugin = PluginLauncher(executable: Binaries.plugin, arguments: ["--profile", "seed"], stderrPrefix: "")

    func scenario(_ runs: [Double], races: RacePlan, threads: Int = BlockingPool.tokioDefault) -> SystemScenario {
        SystemScenario(
            runs: runs.map {
                SystemScenario.Run(
                    initSeconds: 0, initFails: false, runSeconds: $0, outcome: .success, onCancel: .throwError)
            },
            safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 14_400, earliestMinutes: 15,
            blockingThreads: threads, races: races)
    }

    @Test func aDroppedWaitLeaksItsThreadAndThePoolRunsOut() async throws {
        try await onThread {
            let c = SystemCase(
                scenario: scenario(
                    [0, 1000, 0, 1000], races: RacePlan(choices: [.listenerVsCompletion: [.second, .second]]),
                    threads: 2),
                actions: [.start, .start, .stop, .start, .start])
            let outcome = c.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
            #expect(outcome.error == nil)
            let leak = try #require(outcome.violations.first { $0.violation.invariant == .d1 })
            #expect(leak.step == 1)
            #expect(leak.violation.cause == "a blocking thread waits on a waitForCancel the plugin no longer holds")
            let pool = try #require(outcome.violations.first { $0.violation.invariant == .d7 })
            #expect(pool.step == 4)
            #expect(pool.violation.detail.hasPrefix("all 2 blocking threads are busy (1 of them blocked on invokes"))
            // Run 1 ends as the app's next command comes: that race too (its end goes on first).
            #expect(
                outcome.races[0] == [
                    RaceRecord(race: .listenerVsCompletion, run: 1, first: .second),
                    RaceRecord(race: .runEndVsApp, run: 1, first: .first),
                ])
            // With tokio's 512 threads the same five steps leak one thread and run out of nothing.
            var roomy = c
            roomy.scenario.blockingThreads = BlockingPool.tokioDefault
            let signatures = roomy.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
                .violations.map(\.violation.invariant)
            #expect(signatures.contains(.d1) && !signatures.contains(.d7))
        }
    }

    @Test func shrinkingKeepsTheRaceThatMattersAndTracesReplayIt() async throws {
        let level = SystemLevel(
            configuration: .init(
                plugin: plugin, behaviour: .seed, seed: 1, runs: 1, seconds: 60, maxSteps: 10, jobs: 1))
        let signature = "D1: a blocking thread waits on a waitForCancel the plugin no longer holds"
        let finding = try await onThread {
            // Noise around the two starts that matter; the races drawn from a seed.
            let noisy = SystemCase(
                scenario: scenario(
                    [0, 0, 1000], races: RacePlan(choices: [.listenerVsCompletion: [.second, .first]]),
                    threads: 3),
                actions: [
                    .advance(VirtualTime(seconds: 5)!), .start, .conditions(.init(externalPower: true)),
                    .advance(VirtualTime(seconds: 7)!), .start, .advance(VirtualTime(seconds: 9)!),
                ])
            var runner = level.makeRunner(deadline: .none)
            defer { level.close(runner) }
            return try level.shrink(noisy, signature: signature, caseSeed: 1, on: &runner, stop: { false })
        }
        #expect(finding.systemCase.actions == [.start, .start])
        // Only run 1's completion-first is needed; pools smaller than tokio's are not.
        #expect(finding.systemCase.scenario.races.choices[.listenerVsCompletion] == [.second, .first])
        #expect(finding.systemCase.scenario.blockingThreads == BlockingPool.tokioDefault)
        let trace = finding.trace(
            profile: .seed, seed: 1, pluginArguments: ["--profile", "seed", "--clock", "virtual"])
        #expect(
            trace.lines[0]["races"] == [
                ["race": "listener-vs-completion", "run": 1, "order": "completion-first"],
                ["race": "run-end-vs-app", "run": 1, "order": "run-end-first"],
            ])
        #expect(
            trace.header.extra["scenario"]?["races"]?["orders"] == [
                "listener-vs-completion": ["completion-first", "listener-first"], "run-end-vs-app": ["run-end-first"],
            ])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("race-trace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try trace.write(to: dir, name: "d1.jsonl")
        let r = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("identical") && r.stdout.contains("still broken"))
        // The other order of run 1's race does not leak: the shrunk trace says which order broke it.
        var flipped = finding.systemCase
        flipped.scenario.races.choices[.listenerVsCompletion] = [.first, .first]
        let other = flipped
        let outcome = try await onThread {
            other.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
        }
        #expect(outcome.first(signature) == nil)
    }

    @Test func scenariosReadBackFromTheirJSON() {
        let s = scenario([0, 5], races: RacePlan(choices: [.stopVsCompletion: [.second]], seed: 9), threads: 4)
        #expect(SystemScenario(json: s.json) == s)
        var bad = s.json.objectValue!
        bad["races"] = ["seed": .null, "orders": ["listener-vs-completion": ["sideways-first"]]]
        #expect(SystemScenario(json: .object(bad)) == nil)
    }
}
