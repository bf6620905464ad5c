import HostSimulation
import HostTestSupport
import PluginHost
import Testing

/// An actor on a given executor, whose method hops off it and back `times` times (a
/// nonisolated async call runs on the task's executor preference, not on the actor).
private actor Hopper {
    let executor: ManualExecutor

    init(executor: ManualExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func hop(times: Int, log: Box<[String]>, name: String) async {
        for i in 0..<times {
            await Self.away()
            log.update { $0.append("\(name)\(i)") }
        }
    }

    private nonisolated static func away() async {}
}

/// The simulation's executor runs each task until it really suspends, so how many
/// executor hops a task makes (which the optimizer changes between a debug and a
/// release build) never changes the order in which tasks' work happens.
@Suite("ManualExecutor order")
struct ManualExecutorTests {
    @Test(arguments: [0, 1, 7])
    func hopsDoNotLetALaterTaskOvertake(hops: Int) {
        let executor = ManualExecutor()
        let hopper = Hopper(executor: executor)
        let log = Box<[String]>([])
        Task(executorPreference: executor) {
            await hopper.hop(times: hops, log: log, name: "a")
            log.update { $0.append("a-end") }
        }
        Task(executorPreference: executor) {
            log.update { $0.append("b") }
        }
        executor.runUntilEmpty()
        let expected = (0..<hops).map { "a\($0)" } + ["a-end", "b"]
        #expect(log.get == expected)
        #expect(executor.queuedCount == 0)
    }

    @Test func aTaskMadeReadyGoesBehindTheTasksAlreadyReady() {
        let executor = ManualExecutor()
        let hopper = Hopper(executor: executor)
        let log = Box<[String]>([])
        let gate = Box<CheckedContinuation<Void, Never>?>(nil)
        // c waits; a wakes it and goes on (hopping); b was ready before c was woken.
        Task(executorPreference: executor) {
            await withCheckedContinuation { gate.set($0) }
            log.update { $0.append("c") }
        }
        executor.runUntilEmpty()
        Task(executorPreference: executor) {
            gate.get?.resume()
            await hopper.hop(times: 3, log: log, name: "a")
        }
        Task(executorPreference: executor) { log.update { $0.append("b") } }
        executor.runUntilEmpty()
        #expect(log.get == ["a0", "a1", "a2", "b", "c"])
    }
}
