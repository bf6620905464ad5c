import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin
@testable import EmulatedIOS

/// The `--os ios` system's parts in-process: the energy budget, the plan of a request,
/// the advance loop's order at equal times, and a process that ends.
@Suite("unit: ios system")
struct IOSUnitTests {
    /// A full budget of 12 holds 12 launches; it refills one launch per 2 h, exactly.
    @Test func energyBudgetArithmetic() {
        var energy = EnergyBudget(capacity: 12, at: .zero)
        #expect(energy.launchesAvailable(at: .zero) == 12 && energy.affordableAt(.zero) == .zero)
        for _ in 0..<12 { energy.spend(at: seconds(100)) }
        #expect(energy.launchesAvailable(at: seconds(100)) == 0)
        #expect(energy.affordableAt(seconds(100)) == seconds(7300))
        #expect(energy.launchesAvailable(at: seconds(7299.999999999)) == 0)
        #expect(energy.launchesAvailable(at: seconds(7300)) == 1)
        #expect(energy.fullAt(seconds(100)) == seconds(86500))
        energy.spend(at: seconds(200))
        #expect(energy.launchesAvailable(at: seconds(200)) == 0, "never below empty")
        energy.setCapacity(1, at: seconds(86500))
        #expect(energy.launchesAvailable(at: seconds(86500)) == 1 && energy.fullAt(seconds(86500)) == seconds(86500))
    }

    /// A plan is never before `earliestBeginDate` nor before now, and within the delay range.
    @Test func plansRespectTheEarliestDate() {
        let system = IOSSystem(seed: 9)
        system.policy.refreshDelayMinSecs = 10
        system.policy.refreshDelayMaxSecs = 20
        for (earliest, now, low, high) in [(100.0, 0.0, 110.0, 120.0), (5.0, 50.0, 60.0, 70.0)] {
            let plan = system.plan(refreshRequest(at: earliest), at: seconds(now))
            #expect(plan.plannedAt >= seconds(low) && plan.plannedAt <= seconds(high))
        }
        #expect(system.plan(refreshRequest(at: nil), at: seconds(3)).plannedAt >= seconds(13))
    }

    /// `uniform(in:)` covers its range, both ends included, and nothing outside.
    @Test func uniformDraws() {
        var rng = SplitMix64(seed: 1)
        var seen = Set<Int64>()
        for _ in 0..<2000 { seen.insert(rng.uniform(in: 3...7)) }
        #expect(seen == [3, 4, 5, 6, 7])
        #expect(rng.uniform(in: 4...4) == 4)
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
    }

    /// At equal times: the app's timer, then the budget expiry, then a launch.
    @Test func tieOrder() throws {
        let recorder = EventRecorder()
        let os = EmulatedOS(
            clock: virtualClock(), infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"), events: recorder.sink,
            faults: .none, ios: IOSSystem(seed: 0))
        let knobs = IOSPolicy.Update(processingBudgetSecs: 10, refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0)
        os.ios?.policy = IOSPolicy.defaults.applying(knobs)
        var order: [String] = []
        try os.scheduler.register(forTaskWithIdentifier: processingID, kind: .processing) { task in
            order.append("launch \(task.identifier.suffix(10)) \(os.clock.now.decimalSeconds)")
            task.expirationHandler = {
                order.append("expire \(os.clock.now.decimalSeconds)")
                task.setTaskCompleted(success: false)
            }
        }
        try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { task in
            order.append("launch \(task.identifier.suffix(10)) \(os.clock.now.decimalSeconds)")
        }
        os.app.finishLaunching()
        try os.scheduler.submit(processingRequest(at: 0))
        try os.scheduler.submit(refreshRequest(at: 10))
        os.runLoop.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in
            order.append("timer \(os.clock.now.decimalSeconds)")
        }
        os.advance(to: seconds(20))
        #expect(order == ["launch processing 0", "timer 10", "expire 10", "launch bg-refresh 10"])
    }

    /// A terminated process's timers never fire; its registrations are gone with it.
    @Test func deadProcessTimersDie() throws {
        let recorder = EventRecorder()
        let os = EmulatedOS(
            clock: virtualClock(), infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"), events: recorder.sink,
            faults: .none, ios: IOSSystem(seed: 0))
        var fired = 0
        os.runLoop.scheduledTimer(withTimeInterval: 5, repeats: false) { _ in fired += 1 }
        os.terminateApp(reason: .system)
        os.advance(to: seconds(10))
        #expect(fired == 0 && !os.app.isRunning && recorder.names == ["os/appTerminated"])
    }
}
