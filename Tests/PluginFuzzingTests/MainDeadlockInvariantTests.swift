import HostProtocol
import Testing

@testable import PluginFuzzing

/// I6 (issue 22): the plugin's `dispatch.main-deadlock` report is a finding of its own, and not
/// read by D2 as a second completion.
@Suite("I6: no main-thread deadlock")
struct MainDeadlockInvariantTests {
    @Test func aMainDeadlockReportIsI6() {
        var checker = InvariantChecker()
        let report = ViolationEvent.Params(
            rule: "dispatch.main-deadlock",
            detail: "completeBgTask hops to DispatchQueue.main before answering while a caller on the main thread "
                + "waits for completeBgTask request 5 (since 5 s): neither can go on, as on a device")
        let found = checker.invokeRaces([report])
        #expect(found.map(\.invariant) == [.i6])
        #expect(found.first?.detail.contains("completeBgTask request 5") == true)
        #expect(checker.invokeRaces == 1)
        #expect(checker.invokeRaces([.init(rule: "exactly-once", detail: "x")]).isEmpty)
        #expect(Invariant.i6.statement.contains("deadlock"))
    }
}
