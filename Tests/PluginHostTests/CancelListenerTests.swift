import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The three outcomes of the cancel listener, and the strict host's fixes.
@Suite("Cancel listener")
struct CancelListenerTests {
    @Test func resolvedStopsTheService() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 1000) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
            try sim.advance(10)
            try sim.os(OSExpire.self, .init(identifier: sim.refreshIdentifier))
            #expect(sim.serviceEvents.contains(.listenerFinished(generation: 1, outcome: "resolved")))
            #expect(sim.serviceEvents.contains(.stopRequested(.listenerResolved(generation: 1))))
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "stopKeepalive", "completeBgTask"])
            #expect(try sim.status().isRunning == false)
            #expect(try sim.pluginState().pendingRequests.isEmpty)
        }
    }

    @Test func safetyTimerResolvesAndStops() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 1000) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
            try sim.advance(27.999999999)
            #expect(try sim.status().isRunning, "stopped before the safety timer's deadline")
            try sim.advance(0.000000001)
            #expect(try sim.status().isRunning == false)
            #expect(sim.serviceEvents.contains(.stopRequested(.listenerResolved(generation: 1))))
        }
    }

    @Test func timeoutCancelsTheListenerThenStops() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100_000) }
            defer { sim.closeAndCheckReaped() }
            var config = StartKeepaliveConfig()
            config.iosCancelListenerTimeoutSecs = 60
            #expect(try sim.start(config) == nil)
            try sim.advance(59.999)
            #expect(try sim.status().isRunning)
            try sim.advance(0.001)
            #expect(
                sim.rustRequests == [
                    "startKeepalive", "waitForCancel", "cancelCancelListener", "stopKeepalive", "completeBgTask",
                ])
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "listenerCancelled") })
            #expect(sim.serviceEvents.contains(.stopRequested(.listenerTimedOut(generation: 1))))
            #expect(try sim.status().isRunning == false)
        }
    }

    @Test func rejectedDoesNothing() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 5) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.advance(5)
            #expect(
                sim.serviceEvents.contains {
                    if case .listenerFinished(1, let o) = $0 { o.hasPrefix("rejected (completed)") } else { false }
                })
            #expect(!sim.serviceEvents.contains { if case .stopRequested = $0 { true } else { false } })
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "completeBgTask"])
        }
    }

    /// Plays: start (a run that ends at once, its listener and completion racing as
    /// `first` says), 50 s, start again, 50 s.
    func staleListenerScenario(
        behaviour: Profile, profile: Profile, first: Race.Side
    ) throws -> SystemSimulation {
        let sim = try makeSimulation(
            behaviour: behaviour, profile: profile, races: RacePlan(choices: [.listenerVsCompletion: [first]]),
            factory: services([SyncService(runSeconds: 0), SyncService(runSeconds: 1000)]))
        var config = StartKeepaliveConfig()
        config.iosCancelListenerTimeoutSecs = 100
        _ = try sim.start(config)
        try sim.advance(50)
        _ = try sim.start(config)
        try sim.advance(50)
        return sim
    }

    @Test func seedStaleListenerStopsANewerRun() async throws {
        // The seed defect behind invariant D3. When run 1's completion reaches the plugin
        // before its listener's waitForCancel (the race listener-vs-completion), that
        // invoke stays pending; run 2's listener replaces it (the seed drops it
        // unanswered), and when listener 1 times out it cancels listener 2 and stops run 2.
        try await onThread {
            let sim = try staleListenerScenario(behaviour: .seed, profile: .seed, first: .second)
            defer { sim.closeAndCheckReaped() }
            #expect(sim.raceRecords.first == RaceRecord(race: .listenerVsCompletion, run: 1, first: .second))
            #expect(sim.rustRequests.starts(with: ["startKeepalive", "completeBgTask", "waitForCancel"]))
            #expect(try sim.pluginState().counters.dropped == 1)
            #expect(sim.serviceEvents.contains(.stopRequested(.listenerTimedOut(generation: 1))))
            #expect(try sim.status().isRunning == false, "run 2 survived the stale stop")
            // The other order: run 1's completion rejects its own listener, run 2 lives on.
            let other = try staleListenerScenario(behaviour: .seed, profile: .seed, first: .first)
            defer { other.closeAndCheckReaped() }
            #expect(other.raceRecords == [RaceRecord(race: .listenerVsCompletion, run: 1, first: .first)])
            #expect(other.rustRequests.starts(with: ["startKeepalive", "waitForCancel", "completeBgTask"]))
            #expect(try other.status().isRunning)
        }
    }

    @Test(arguments: [Race.Side.first, .second])
    func strictNeverLetsAStaleListenerStopANewerRun(first: Race.Side) async throws {
        try await onThread {
            let sim = try staleListenerScenario(behaviour: .strict, profile: .strict, first: first)
            defer { sim.closeAndCheckReaped() }
            // Strict writes the listener's waitForCancel before the service exists: no race.
            #expect(sim.raceRecords.isEmpty)
            #expect(try sim.pluginState().counters.dropped == 0)
            #expect(try sim.status().isRunning, "run 2 was stopped")
        }
    }

    @Test func strictIgnoresAStaleListenersStop() async throws {
        try await onThread {
            let sim = try makeSimulation(behaviour: .strict, profile: .strict) { SyncService(runSeconds: 0) }
            defer { sim.closeAndCheckReaped() }
            var config = StartKeepaliveConfig()
            config.iosCancelListenerTimeoutSecs = 100
            #expect(try sim.start(config) == nil)
            // Strict arms the listener before the service runs, and releases the
            // keepalive when the run ends on its own.
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "completeBgTask", "stopKeepalive"])
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "completed") })
            #expect(try sim.pluginState().pendingRequests.isEmpty)
            #expect(try sim.pluginState().cancelInvokePending == false)
        }
    }

    @Test func strictSkipsAnOldRunsCompletion() async throws {
        try await onThread {
            let gate = Gate()
            let sim = try makeSimulation(
                behaviour: .strict, profile: .strict,
                factory: services([StubbornService(gate: gate), SyncService(runSeconds: 1000)]))
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            #expect(try sim.stop() == nil)
            #expect(try sim.start() == nil)
            gate.open()
            try sim.runUntilIdle()
            #expect(sim.serviceEvents.contains(.completionSkipped(generation: 1)))
            #expect(try sim.pluginState().cancelInvokePending == true, "run 2's listener must still be pending")
        }
    }
}
