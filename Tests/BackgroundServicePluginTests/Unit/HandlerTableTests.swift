import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// The engine's handler table: found by the name's bytes, replaced by a later set,
/// removed by setting nil, and nothing found for a name it does not have.
@Suite("unit: handler table")
struct HandlerTableTests {
    final class Calls: InvokeSink {
        var names: [String] = []
        func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route) {}
        func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route) {}
    }

    @Test func findsEachNameByItsBytes() {
        let calls = Calls()
        var table = HandlerTable()
        let names = ["initialize", "os/launch", "os/expire", "os/submit", "cancelCancelListener", "é", "e\u{301}"]
        for name in names { table[name] = { _ in calls.names.append(name) } }
        table["os/expire"] = { _ in calls.names.append("replaced") }
        table["os/submit"] = nil
        let invoke = Invoke(id: nil, method: "x", args: .object([:]), route: Invoke.Route(sink: calls, replyID: nil))
        for name in names + ["os/launcH", "", "initialise", "cancelCancelListener "] { table[name]?(invoke) }
        // "é" and "e\u{301}" are different names on the wire, as they are different bytes.
        #expect(calls.names == ["initialize", "os/launch", "replaced", "cancelCancelListener", "é", "e\u{301}"])
    }

    /// Each method comes with the queue it runs on: the OS's on main, the seed's invokes
    /// on `ipc`, the rest once both are idle.
    @Test func eachMethodComesWithItsQueue() {
        var table = HandlerTable(queue: PluginEngine.queue(of:))
        for name in ["os/launch", "cancelCancelListener", "waitForCancel", "plugin/state", "initialize"] {
            table[name] = { _ in }
        }
        #expect(table.find("os/launch")?.queue == .main)
        #expect(table.find("cancelCancelListener")?.queue == .ipc)
        #expect(table.find("waitForCancel")?.queue == .ipc)
        #expect(table.find("plugin/state")?.queue == .afterBoth)
        #expect(table.find("initialize")?.queue == .afterBoth)
        #expect(table.find("os/expire") == nil)
    }
}
