import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// Blocking bridge calls and tokio's blocking pool (issue 13, item 1): a dropped
/// `waitForCancel` leaks its thread, and a full pool queues the next listener.
@Suite("Blocking threads")
struct BlockingThreadTests {
    /// The ids of the Rust side's `waitForCancel` requests, in order.
    func waitIDs(_ sim: SystemSimulation) -> [RequestID] {
        sim.timeline.compactMap { e in
            if case .request(let r, .rust) = e.kind, r.method == "waitForCancel" { r.id } else { nil }
        }
    }

    @Test func onlyWaitForCancelHoldsAPoolThread() async throws {
        try await onThread {
            let sim = try makeSimulation { SyncService(runSeconds: 1000) }
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)
            let running = sim.manager.bridgeSnapshot
            let id = try #require(waitIDs(sim).first)
            #expect(running.calls == [TauriBridge.Call(request: id, method: "waitForCancel", run: 1, poolThread: 1)])
            #expect(running.poolBusy == 1 && running.poolCapacity == 512 && running.listening == [1])
            #expect(try sim.stop() == nil)
            let stopped = sim.manager.bridgeSnapshot
            #expect(stopped.calls.isEmpty && stopped.poolBusy == 0 && stopped.listening.isEmpty)
        }
    }

    @Test func aTimedOutListenerLeavesItsThreadBlockedOnADroppedWait() async throws {
        try await onThread {
            let sim = try makeSimulation(
                races: RacePlan(choices: [.listenerVsCompletion: [.second]]),
                factory: services([SyncService(runSeconds: 0), SyncService(runSeconds: 1000)]))
            defer { sim.closeAndCheckReaped() }
            var config = StartKeepaliveConfig()
            config.iosCancelListenerTimeoutSecs = 100
            #expect(try sim.start(config) == nil)  // run 1 ends before its waitForCancel (#w1) is written
            try sim.advance(50)
            #expect(try sim.start(config) == nil)  // run 2's waitForCancel (#w2) replaces #w1: dropped
            let ids = waitIDs(sim)
            #expect(ids.count == 2)
            #expect(try sim.pluginState().counters.dropped == 1)
            #expect(sim.manager.bridgeSnapshot.poolBusy == 2)
            try sim.advance(50)  // listener 1 times out: it drops its handle, not its thread
            let w1 = ids[0]
            #expect(
                sim.serviceEvents.contains(
                    .listenerFinished(
                        generation: 1,
                        outcome: "timed out after 100 s; its blocking thread stays blocked on waitForCancel #\(w1)")))
            // Its cancelCancelListener rejected the invoke the plugin held, run 2's.
            #expect(sim.rustOutcomes.contains { $0 == ("waitForCancel", "listenerCancelled") })
            try sim.advance(100_000)
            let leaked = sim.manager.bridgeSnapshot
            #expect(leaked.calls == [TauriBridge.Call(request: w1, method: "waitForCancel", run: 1, poolThread: 1)])
            #expect(leaked.poolBusy == 1 && leaked.listening.isEmpty)
            #expect(try sim.pluginState().cancelInvokePending == false, "nothing will ever answer #\(w1)")
        }
    }

    @Test func aQueuedWaitForCancelIsWrittenWhenAThreadFrees() async throws {
        try await onThread {
            let sim = try makeSimulation(
                races: RacePlan(choices: [.listenerVsCompletion: [.second]]), blockingThreads: 1,
                factory: services([SyncService(runSeconds: 0), SyncService(runSeconds: 1000)]))
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)  // run 1's waitForCancel stays pending: the only thread is held
            #expect(try sim.start() == nil)
            #expect(sim.serviceEvents.contains(.listenerQueued(generation: 2, busy: 1)))
            #expect(sim.rustRequests == ["startKeepalive", "completeBgTask", "waitForCancel", "startKeepalive"])
            #expect(sim.manager.bridgeSnapshot.queued == [2])
            // stopKeepalive and completeBgTask block async workers, not pool threads: they
            // go through; stopKeepalive rejects run 1's waitForCancel, whose thread then
            // runs the queued closure.
            #expect(try sim.stop() == nil)
            let requests = sim.rustRequests
            #expect(requests.filter { $0 == "waitForCancel" }.count == 2)
            #expect(requests.lastIndex(of: "waitForCancel")! > requests.firstIndex(of: "stopKeepalive")!)
            #expect(requests.contains("completeBgTask"))
            // Run 2's completion then rejects that waitForCancel (listener-first, the default).
            let after = sim.manager.bridgeSnapshot
            #expect(after.queued.isEmpty && after.poolBusy == 0)
            #expect(sim.raceRecords.last == RaceRecord(race: .listenerVsCompletion, run: 2, first: .first))
        }
    }

    @Test func thePoolRunsOutAfterDroppedWaits() async throws {
        try await onThread {
            let sim = try makeSimulation(
                races: RacePlan(choices: [.listenerVsCompletion: [.second, .second]]), blockingThreads: 2,
                factory: services([
                    SyncService(runSeconds: 0), SyncService(runSeconds: 1000), SyncService(runSeconds: 0),
                    SyncService(runSeconds: 1000),
                ]))
            defer { sim.closeAndCheckReaped() }
            #expect(try sim.start() == nil)  // #w1 pending with no run (thread 1)
            #expect(try sim.start() == nil)  // #w2 drops #w1: thread 1 is leaked
            #expect(try sim.stop() == nil)  // stopKeepalive rejects #w2: thread 2 is free
            #expect(try sim.start() == nil)  // #w3 pending with no run (thread 2)
            #expect(try sim.start() == nil)  // run 4's waitForCancel: no thread
            let full = sim.manager.bridgeSnapshot
            #expect(full.queued == [4] && full.poolBusy == 2)
            #expect(full.calls.map(\.run) == [1, 3])
            #expect(sim.serviceEvents.contains(.listenerQueued(generation: 4, busy: 2)))
            #expect(try sim.status().isRunning)
            #expect(sim.rustRequests.filter { $0 == "waitForCancel" }.count == 3)
        }
    }
}
