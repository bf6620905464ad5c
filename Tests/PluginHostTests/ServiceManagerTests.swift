import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost
@testable import RustSide

/// The service manager's behaviours (reference part A), each against the real
/// plugin on the virtual clock.
@Suite("ServiceManager")
struct ServiceManagerTests {
    @Test func startFromIdle() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            let before = try sim.status()
            #expect(before == ServiceStatus(state: .idle, lastError: nil, generation: 0, isRunning: false))
            #expect(try sim.start() == nil)
            let after = try sim.status()
            #expect(after.state == .running && after.isRunning && after.generation == 1)
            #expect(sim.rustRequests == ["startKeepalive", "waitForCancel"])
            let plugin = try sim.pluginState()
            #expect(plugin.pendingRequests.count == 2)
            #expect(plugin.cancelInvokePending == true)
        }
    }

    @Test func doubleStartFails() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            #expect(try sim.start() == .alreadyRunning)
            #expect(try sim.status().generation == 1)
            #expect(sim.rustRequests.filter { $0 == "startKeepalive" }.count == 1)
        }
    }

    @Test func stopWhenNotRunningFails() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.stop() == .notRunning)
            #expect(sim.rustRequests.isEmpty)
        }
    }

    @Test func startStopStart() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            #expect(try sim.stop() == nil)
            #expect(try sim.status().isRunning == false)
            #expect(try sim.start() == nil)
            let status = try sim.status()
            #expect(status.isRunning && status.generation == 2 && status.state == .running)
            // stopKeepalive rejected the first listener; the cancelled run completed with false.
            #expect(
                sim.rustRequests == [
                    "startKeepalive", "waitForCancel", "stopKeepalive", "completeBgTask", "startKeepalive",
                    "waitForCancel",
                ])
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "stopped") })
        }
    }

    @Test(arguments: [(SyncService.Outcome.success, true), (.failure, false)])
    func completionCallbackReportsTheOutcome(outcome: SyncService.Outcome, success: Bool) async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 5, outcome: outcome) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.advance(5)
            #expect(sim.serviceEvents.contains(.completionCallback(generation: 1, success: success)))
            let completes = sim.timeline.compactMap { e -> JSONValue? in
                if case .request(let r, .rust) = e.kind, r.method == "completeBgTask" { return r.params?["success"] }
                return nil
            }
            #expect(completes == [.bool(success)])
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "completed") })
            let status = try sim.status()
            #expect(status.state == .stopped && !status.isRunning)
            #expect((status.lastError != nil) == !success)
        }
    }

    @Test func completionCallbackOnInitFailure() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(initSeconds: 1, initFails: true, runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.advance(1)
            #expect(sim.serviceEvents.contains(.completionCallback(generation: 1, success: false)))
            let status = try sim.status()
            #expect(status.state == .stopped)
            #expect(status.lastError?.hasPrefix("initialize failed") == true)
            #expect(!sim.serviceEvents.contains(.stateChanged(generation: 1, .running)))
        }
    }

    @Test func generationGuardKeepsANewerRunsToken() async throws {
        try await onThread {
            let gate = Gate()
            let sim = try makeSimulation(
                factory: services([StubbornService(gate: gate), SyncService(runSeconds: 1000)]))
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            #expect(try sim.stop() == nil)  // run 1 ignores the cancellation and keeps going
            #expect(try sim.start() == nil)
            gate.open()  // run 1's late cleanup now runs, with run 2 current
            try sim.runUntilIdle()
            let status = try sim.status()
            #expect(status.isRunning, "the old run's cleanup cleared the newer run's token")
            #expect(status.generation == 2 && status.state == .running)
            #expect(sim.serviceEvents.contains { if case .runEnded(1, _, _, false) = $0 { true } else { false } })
        }
    }

    @Test func rollbackWhenStartKeepaliveFails() async throws {
        try await onThread {
            let sim = try makeSimulation(faults: "reject-start-keepalive") { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            let recorded = Box<[Bool]>([])
            // The actor's own Start, after a SetOnComplete of the test's choosing.
            try sim.host { await $0.setOnComplete { success in recorded.update { $0.append(success) } } }
            let failure = try sim.startCommand()
            guard failure?.code == .keepaliveFailed, let error = failure?.hostError else {
                Issue.record("start did not fail with keepaliveFailed")
                return
            }
            #expect(error.rpcCode == .internalError)
            // Rolled back to idle; the last error was cleared by the start and stays cleared.
            #expect(try sim.status() == ServiceStatus(state: .idle, lastError: nil, generation: 1, isRunning: false))
            #expect(sim.serviceEvents.contains(.rolledBack(generation: 1)))
            #expect(sim.rustRequests == ["startKeepalive"], "no service and no listener after a failed start")
            // The callback the start took is back in its slot.
            try sim.host { await $0.onComplete?(true) }
            #expect(recorded.get == [true])
        }
    }

    @Test func stopKeepaliveFailureIsLoggedNotReturned() async throws {
        try await onThread {
            let sim = try makeSimulation(faults: "reject-stop-keepalive") { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            #expect(try sim.stop() == nil)
            #expect(sim.serviceEvents.contains { if case .stopKeepaliveFailed = $0 { true } else { false } })
            #expect(
                sim.timeline.contains {
                    if case .note(let t) = $0.kind { t.hasPrefix("log: stopKeepalive failed") } else { false }
                })
            #expect(try sim.status().isRunning == false)
        }
    }
}
