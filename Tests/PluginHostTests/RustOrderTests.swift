import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The real Rust side's order of steps (issue 13, items 3 to 6), each against the
/// real plugin on the virtual clock.
@Suite("Rust side order")
struct RustOrderTests {
    /// A completion callback that waits for `gate` before it calls `completeBgTask`,
    /// so that the test can act while the callback is in flight.
    func gatedCallback(_ gate: Gate, on sim: SystemSimulation) throws {
        let connection = sim.client.connection
        try sim.host { manager in
            await manager.setOnComplete { success in
                await gate.wait()
                _ = try? await connection.call(CompleteBgTask.self, .init(success: success))
            }
        }
    }

    @Test func whileTheCallbackRunsStartFailsAndStopSucceeds() async throws {
        // Item 3, run path: the callback fires before the token and state are cleared.
        try await onThread {
            let gate = Gate()
            let sim = try makeSimulation { SyncService(runSeconds: 0) }
            defer { sim.closeAndCheckReaped() }
            try gatedCallback(gate, on: sim)
            #expect(try sim.startCommand() == nil)
            #expect(sim.serviceEvents.contains(.completionCallback(generation: 1, success: true)))
            let during = try sim.status()
            #expect(during.isRunning && during.state == .running, "the token was cleared before the callback")
            #expect(try sim.start() == .alreadyRunning)
            #expect(try sim.stop() == nil, "a Stop while the callback is in flight takes the token")
            #expect(sim.rustRequests == ["startKeepalive", "stopKeepalive"])
            gate.open()
            try sim.runUntilIdle()
            #expect(sim.rustRequests == ["startKeepalive", "stopKeepalive", "completeBgTask"])
            #expect(try sim.status() == ServiceStatus(state: .stopped, lastError: nil, generation: 1, isRunning: false))
        }
    }

    @Test func afterAnInitFailureTheTokenIsClearedBeforeTheCallback() async throws {
        // Item 3, init-failure path: cleared first, so a Start during the callback succeeds.
        try await onThread {
            let gate = Gate()
            let sim = try makeSimulation(
                factory: services([
                    SyncService(initFails: true, runSeconds: 0),
                    SyncService(runSeconds: 1000),
                ]))
            defer { sim.closeAndCheckReaped() }
            try gatedCallback(gate, on: sim)
            #expect(try sim.startCommand() == nil)
            let during = try sim.status()
            #expect(!during.isRunning && during.state == .stopped)
            #expect(during.lastError?.hasPrefix("initialize failed") == true)
            #expect(try sim.stop() == .notRunning)
            #expect(try sim.start() == nil, "a Start during an init failure's callback starts run 2")
            gate.open()
            try sim.runUntilIdle()
            let after = try sim.status()
            #expect(after.isRunning && after.generation == 2 && after.state == .running)
        }
    }

    @Test func rollbackClearsTheLastError() async throws {
        // Item 4: a failed startKeepalive leaves the state idle and no last error, even
        // when the previous run had failed.
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 0, outcome: .failure) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            let failed = try sim.status()
            #expect(failed.state == .stopped && failed.lastError == "run failed: sync failed")
            // The plugin dies: the next startKeepalive fails.
            let plugin = try #require(sim.client.connection.pluginProcess)
            plugin.kill()
            _ = plugin.waitForExit(timeout: .seconds(10))
            #expect(try sim.start()?.code == .keepaliveFailed)
            #expect(try sim.status() == ServiceStatus(state: .idle, lastError: nil, generation: 2, isRunning: false))
        }
    }

    @Test func theCallbackIsTakenAtSpawn() async throws {
        // Item 5: SetOnComplete fills the slot, Start takes it; one set during a run is the next run's.
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 5) }
            defer { sim.closeAndCheckReaped() }
            let calls = Box<[String]>([])
            try sim.host { await $0.setOnComplete { _ in calls.update { $0.append("A") } } }
            #expect(try sim.startCommand() == nil)
            #expect(try sim.hostValue { await $0.onComplete == nil }, "Start took the callback out of the slot")
            try sim.host { await $0.setOnComplete { _ in calls.update { $0.append("B") } } }
            try sim.advance(5)
            #expect(calls.get == ["A"], "run 1 called the callback set before its start")
            #expect(try sim.startCommand() == nil)
            try sim.advance(5)
            #expect(calls.get == ["A", "B"])
            // The Tauri start command sets the bridge callback before each Start.
            #expect(try sim.start() == nil)
            try sim.advance(5)
            #expect(calls.get == ["A", "B"])
            #expect(sim.rustRequests.filter { $0 == "completeBgTask" }.count == 1)
        }
    }

    @Test func startKeepaliveParamsAreWrittenAsTheRustSideWritesThem() async throws {
        // Item 6: label and foregroundServiceType, floats, no processing timeout when <= 0.
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 1) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            try sim.advance(1)
            var config = StartKeepaliveConfig()
            config.iosProcessingSafetyTimeoutSecs = 30
            config.iosEarliestRefreshBeginMinutes = 0.5
            #expect(try sim.start(config) == nil)
            let sent = sim.timeline.compactMap { e -> String? in
                guard case .request(let r, .rust) = e.kind, r.method == "startKeepalive" else { return nil }
                return r.params?.description
            }
            #expect(
                sent == [
                    #"{"foregroundServiceType":"dataSync","iosEarliestProcessingBeginMinutes":15.0,"#
                        + #""iosEarliestRefreshBeginMinutes":15.0,"iosRequiresExternalPower":false,"#
                        + #""iosRequiresNetworkConnectivity":false,"iosSafetyTimeoutSecs":28.0,"#
                        + #""label":"Service running"}"#,
                    #"{"foregroundServiceType":"dataSync","iosEarliestProcessingBeginMinutes":15.0,"#
                        + #""iosEarliestRefreshBeginMinutes":0.5,"iosProcessingSafetyTimeoutSecs":30.0,"#
                        + #""iosRequiresExternalPower":false,"iosRequiresNetworkConnectivity":false,"#
                        + #""iosSafetyTimeoutSecs":28.0,"label":"Service running"}"#,
                ])
            #expect(try sim.pluginState().config.iosProcessingSafetyTimeoutSecs == 30)
        }
    }

    @Test func anUnknownForegroundServiceTypeIsRefusedBeforeThePlugin() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            var config = StartKeepaliveConfig()
            config.foregroundServiceType = "bluetooth"
            #expect(try sim.start(config) == .invalidForegroundServiceType("bluetooth"))
            #expect(sim.rustRequests.isEmpty)
            #expect(try sim.status() == ServiceStatus(state: .idle, lastError: nil, generation: 0, isRunning: false))
            // Every type Android documents is accepted; "already running" is checked first.
            for type in ForegroundServiceType.allowed {
                var c = StartKeepaliveConfig()
                c.foregroundServiceType = type
                #expect(try sim.startCommand(c) == (type == "camera" ? nil : .alreadyRunning))
            }
            #expect(try sim.start(config) == .alreadyRunning)
        }
    }
}
