import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin
@testable import EmulatedIOS

/// The completion ledger (exactly-once) and the Invoke abstraction (answered once).
@Suite("unit: completion ledger and Invoke")
struct LedgerAndInvokeUnitTests {
    // MARK: - CompletionLedger

    /// A second `setTaskCompleted` is an `exactly-once` violation: reported, counted,
    /// and not performed (no second `os/taskCompleted`, the OS is not told again).
    @Test func doubleCompletionIsAViolationAndNotPerformed() {
        let rec = EventRecorder()
        let ledger = CompletionLedger(events: rec.sink, clock: virtualClock())
        var firstCompletions: [String] = []
        ledger.onFirstCompletion = { firstCompletions.append($0.identifier) }
        let task = BGAppRefreshTask(identifier: refreshID, launchedAt: .zero, serial: 1, ledger: ledger)
        task.setTaskCompleted(success: true)
        task.setTaskCompleted(success: false)
        #expect(ledger.isCompleted(task))
        #expect(firstCompletions == [refreshID])
        #expect(rec.names == ["os/taskCompleted", "os/violation"])
        #expect(rec.violationRules == ["exactly-once"])
        #expect(rec.events[0].params["success"]?.boolValue == true)
        #expect(
            rec.events[1].params["detail"]?.stringValue
                == "setTaskCompleted(success: false) called again for \(refreshID) launched at 0; ignored")
        #expect(rec.sink.counters.completed == 1)
        #expect(rec.sink.counters.violations == 1)
        #expect(
            rec.logs == [
                "violation of exactly-once: setTaskCompleted(success: false) called again for \(refreshID) "
                    + "launched at 0; ignored"
            ])
    }

    /// Each launch is its own task: completing two different tasks is fine.
    @Test func distinctTasksCompleteIndependently() {
        let rec = EventRecorder()
        let ledger = CompletionLedger(events: rec.sink, clock: virtualClock())
        let a = BGAppRefreshTask(identifier: refreshID, launchedAt: .zero, serial: 1, ledger: ledger)
        let b = BGProcessingTask(identifier: processingID, launchedAt: .zero, serial: 2, ledger: ledger)
        #expect(!ledger.isCompleted(b))
        a.setTaskCompleted(success: true)
        b.setTaskCompleted(success: false)
        #expect(rec.sink.counters.completed == 2)
        #expect(rec.violationRules.isEmpty)
    }

    /// The OS frees its one-task slot on the first completion only.
    @Test func firstCompletionFreesTheRunningSlot() throws {
        let rec = EventRecorder()
        let os = makeOS(rec)
        var launched: BGTask?
        try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { launched = $0 }
        try os.scheduler.submit(refreshRequest())
        _ = try os.launch(identifier: refreshID)
        #expect(os.runningTask != nil)
        launched?.setTaskCompleted(success: true)
        #expect(os.runningTask == nil)
        launched?.setTaskCompleted(success: true)
        #expect(rec.violationRules == ["exactly-once"])
    }

    // MARK: - Invoke

    final class RouteLog: InvokeSink {
        var delivered: [Result<JSONValue, RPCError>?] = []
        var twice: [String] = []
        var route: Invoke.Route { Invoke.Route(sink: self, replyID: .int(7)) }
        func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route) { delivered.append(outcome) }
        func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route) {
            twice.append(detail)
        }
    }

    /// An invoke is answered at most once; a second answer is reported, not delivered.
    @Test(arguments: ["resolve", "reject"])
    func answeredAtMostOnce(first: String) {
        let log = RouteLog()
        let invoke = Invoke(id: .int(7), method: "completeBgTask", args: .object([:]), route: log.route)
        if first == "resolve" { invoke.resolve() } else { invoke.reject(.completed) }
        #expect(invoke.isAnswered)
        invoke.resolve()
        invoke.reject(.stopped)
        #expect(log.delivered.count == 1)
        if first == "resolve" {
            #expect(log.delivered.first == .some(.success(.null)))
        } else {
            #expect(log.delivered.first == .some(.failure(.rejected(.completed))))
        }
        #expect(
            log.twice
                == Array(
                    repeating: "completeBgTask request 7 answered a second time; the second answer was not written",
                    count: 2))
    }

    /// An invoke released without an answer is delivered as "dropped" (nil), once.
    @Test func droppedInvokeIsReported() {
        let log = RouteLog()
        do {
            _ = Invoke(id: .int(1), method: "waitForCancel", args: .object([:]), route: log.route)
        }
        #expect(log.delivered.count == 1)
        #expect(log.delivered.first == .some(nil))
        // An answered invoke is not reported as dropped when released.
        do {
            let answered = Invoke(id: .int(2), method: "waitForCancel", args: .object([:]), route: log.route)
            answered.resolve()
        }
        #expect(log.delivered.count == 2)
        #expect(log.delivered.last == .some(.success(.null)))
    }

    /// Through the engine: the seed's superseded `waitForCancel` is counted in
    /// `counters.dropped`, and a second answer becomes an `invoke.answered-once` event.
    @Test func engineCountsDroppedAndReportsSecondAnswers() throws {
        var options = PluginOptions()
        options.events = true
        let engine = try PluginEngine(options: options)
        engine.receive(Array((req(1, "waitForCancel") + "\n" + req(2, "waitForCancel") + "\n").utf8))
        #expect(engine.world.events.counters.dropped == 1)
        let pending = try #require(engine.world.plugin.pendingCancelInvoke)
        pending.resolve()
        pending.resolve()
        #expect(engine.world.events.counters.violations == 1)
        let output = String(decoding: engine.takeOutput(), as: UTF8.self)
        #expect(
            output == ok(2) + "\n"
                + evViolation(
                    "invoke.answered-once",
                    "waitForCancel request 2 answered a second time; the second answer was not written") + "\n")
    }
}
