import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// Each race of the Rust side is a recorded choice: both orders are reachable, and
/// a plan frozen from the records replays the same timeline.
@Suite("Race choices")
struct RaceChoiceTests {
    /// Plays `script` in a fresh simulation with `plan`; returns it (to be closed).
    func play(
        _ plan: RacePlan, runSeconds: Double = 1000, script: (SystemSimulation) throws -> Void
    ) throws -> SystemSimulation {
        let sim = try makeSimulation(races: plan) { SyncService(runSeconds: runSeconds) }
        try script(sim)
        return sim
    }

    /// Replays with the recorded orders frozen; expects the same timeline.
    func expectReplays(
        _ sim: SystemSimulation, runSeconds: Double = 1000, script: (SystemSimulation) throws -> Void
    ) throws {
        let again = try play(RacePlan(frozen: sim.raceRecords), runSeconds: runSeconds, script: script)
        defer { again.closeAndCheckReaped() }
        #expect(again.raceRecords == sim.raceRecords)
        #expect(TimelineRenderer.text(again.timeline) == TimelineRenderer.text(sim.timeline))
    }

    @Test(arguments: [Race.Side.first, .second])
    func listenerVsCompletion(first: Race.Side) async throws {
        try await onThread {
            let script: (SystemSimulation) throws -> Void = { sim in _ = try sim.start() }
            let sim = try play(RacePlan(choices: [.listenerVsCompletion: [first]]), runSeconds: 0, script: script)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords == [RaceRecord(race: .listenerVsCompletion, run: 1, first: first)])
            let expected =
                first == .first
                ? ["startKeepalive", "waitForCancel", "completeBgTask"]
                : ["startKeepalive", "completeBgTask", "waitForCancel"]
            #expect(sim.rustRequests == expected)
            // Listener first: the completion rejects it. Completion first: it stays pending.
            #expect(try sim.pluginState().cancelInvokePending == (first == .second))
            let note = sim.raceRecords[0].description
            #expect(sim.timeline.contains { if case .note(let t) = $0.kind { t == note } else { false } })
            try expectReplays(sim, runSeconds: 0, script: script)
        }
    }

    @Test(arguments: [Race.Side.first, .second])
    func stopVsCompletion(first: Race.Side) async throws {
        try await onThread {
            let script: (SystemSimulation) throws -> Void = { sim in
                _ = try sim.start()
                _ = try sim.stop()
            }
            let sim = try play(RacePlan(choices: [.stopVsCompletion: [first]]), script: script)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords == [RaceRecord(race: .stopVsCompletion, run: 1, first: first)])
            let tail = first == .first ? ["stopKeepalive", "completeBgTask"] : ["completeBgTask", "stopKeepalive"]
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel"] + tail)
            // Whichever comes first rejects the listener's invoke.
            let rejected = first == .first ? "stopped" : "completed"
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", rejected) })
            try expectReplays(sim, script: script)
        }
    }

    @Test(arguments: [Race.Side.first, .second])
    func pluginVsHostDeadline(first: Race.Side) async throws {
        // The safety timer (28 s after the launch) and the listener's timeout (28 s after
        // the start) are due at the same instant.
        try await onThread {
            let script: (SystemSimulation) throws -> Void = { sim in
                var config = StartKeepaliveConfig()
                config.iosCancelListenerTimeoutSecs = 28
                _ = try sim.start(config)
                try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
                try sim.advance(28)
            }
            let sim = try play(RacePlan(choices: [.pluginVsHostDeadline: [first]]), script: script)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords.first == RaceRecord(race: .pluginVsHostDeadline, run: nil, first: first))
            let listener = sim.serviceEvents.compactMap { e -> String? in
                if case .listenerFinished(1, let outcome) = e { outcome } else { nil }
            }
            if first == .first {
                #expect(listener == ["resolved"], "the safety timer resolved the listener's invoke")
            } else {
                #expect(listener.first?.hasPrefix("timed out after 28 s") == true)
                #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "listenerCancelled") })
            }
            #expect(try sim.status().isRunning == false)
            try expectReplays(sim, script: script)
        }
    }

    @Test(arguments: [Race.Side.first, .second])
    func runEndVsApp(first: Race.Side) async throws {
        // The run ends 5 s in, and the app starts the service again at that instant.
        try await onThread {
            let script: (SystemSimulation) throws -> Void = { sim in
                _ = try sim.start()
                sim.appCommandAt = sim.now.adding(seconds: 5)
                try sim.advance(5)
                sim.appCommandAt = nil
                try sim.host { _ = try? await $0.start(StartKeepaliveConfig()) }
            }
            let sim = try play(RacePlan(choices: [.runEndVsApp: [first]]), runSeconds: 5, script: script)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords == [RaceRecord(race: .runEndVsApp, run: 1, first: first)])
            let refused = sim.serviceEvents.contains(.startFailed(generation: 1, error: "already running"))
            if first == .first {
                #expect(!refused)
                #expect(try sim.status().generation == 2 && sim.status().isRunning)
            } else {
                // The app's start lands between run 1's completeBgTask and its cleanup.
                #expect(refused, "a start while the completion is in flight fails")
                let after = try sim.status()
                #expect(after == ServiceStatus(state: .stopped, lastError: nil, generation: 1, isRunning: false))
            }
            try expectReplays(sim, runSeconds: 5, script: script)
        }
    }

    @Test func aRaceNobodyContestsIsNotRecorded() async throws {
        try await onThread {
            let sim = try play(RacePlan(seed: 1)) { sim in
                _ = try sim.start()  // the run takes time: the listener is pending long before it ends
                try sim.advance(1000)
            }
            defer { sim.closeAndCheckReaped() }
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "completeBgTask"])
            #expect(sim.raceRecords.isEmpty)
        }
    }

    @Test func seedsDrawBothOrders() async throws {
        try await onThread {
            var seen: Set<Race.Side> = []
            for seed in UInt64(0)..<12 {
                let sim = try play(RacePlan(seed: seed), runSeconds: 0) { _ = try $0.start() }
                defer { sim.closeAndCheckReaped() }
                seen.formUnion(sim.raceRecords.map(\.first))
            }
            #expect(seen == [.first, .second])
        }
    }
}
