import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

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
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "cancelCancelListener", "stopKeepalive", "completeBgTask"])
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
            #expect(sim.serviceEvents.contains { if case .listenerFinished(1, let o) = $0 { o.hasPrefix("rejected (completed)") } else { false } })
            #expect(!sim.serviceEvents.contains { if case .stopRequested = $0 { true } else { false } })
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel", "completeBgTask"])
        }
    }

    /// Plays: start (a run that ends at once), 50 s, start again, 50 s; returns the
    /// simulation after the given schedule.
    func staleListenerScenario(behaviour: HostBehaviour, profile: Profile, schedule: UInt64) throws -> SystemSimulation {
        let sim = try makeSimulation(behaviour: behaviour, profile: profile, scheduleSeed: schedule, factory: services([SyncService(runSeconds: 0), SyncService(runSeconds: 1000)]))
        var config = StartKeepaliveConfig()
        config.iosCancelListenerTimeoutSecs = 100
        _ = try sim.start(config)
        try sim.advance(50)
        _ = try sim.start(config)
        try sim.advance(50)
        return sim
    }

    @Test func seedStaleListenerStopsANewerRun() async throws {
        // The seed defect behind invariant D3. When run 1 ends before its listener's
        // waitForCancel is written (a race the Rust side really has), that invoke stays
        // pending; run 2's listener replaces it (the seed drops it unanswered), and
        // when listener 1 times out it cancels listener 2 and stops run 2.
        try await onThread {
            var exhibited = 0
            for schedule in UInt64(0)..<40 {
                let sim = try staleListenerScenario(behaviour: .seed, profile: .seed, schedule: schedule)
                defer { sim.closeAndCheckReaped() }
                let requests = sim.rustRequests
                guard requests.starts(with: ["startKeepalive", "completeBgTask", "waitForCancel"]) else { continue }
                exhibited += 1
                #expect(try sim.pluginState().counters.dropped == 1)
                #expect(sim.serviceEvents.contains(.stopRequested(.listenerTimedOut(generation: 1))))
                #expect(try sim.status().isRunning == false, "run 2 survived the stale stop")
            }
            #expect(exhibited > 0, "no schedule ended run 1 before its listener was armed")
        }
    }

    @Test func strictNeverLetsAStaleListenerStopANewerRun() async throws {
        try await onThread {
            for schedule in UInt64(0)..<40 {
                let sim = try staleListenerScenario(behaviour: .strict, profile: .strict, schedule: schedule)
                defer { sim.closeAndCheckReaped() }
                #expect(try sim.pluginState().counters.dropped == 0)
                #expect(try sim.status().isRunning, "schedule \(schedule): run 2 was stopped")
            }
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
            let sim = try makeSimulation(behaviour: .strict, profile: .strict, factory: services([StubbornService(gate: gate), SyncService(runSeconds: 1000)]))
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
