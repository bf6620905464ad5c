import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// `SystemSimulation.pluginState()` decodes an answer equal to the last one only once
/// (issue 25: decoding the snapshot was a quarter of a system-level step). The request is
/// still made each time (traces count it), and a changed answer is decoded afresh: never a stale state.
@Suite("The plugin's state, decoded once per distinct answer")
struct PluginStateReuseTests {
    @Test func anUnchangedStateIsReusedAndAChangedOneIsRead() async throws {
        try await onThread {
            let sim = try makeSimulation(factory: services([SyncService(runSeconds: 1000)]))
            defer { sim.closeAndCheckReaped() }
            let first = try sim.pluginState()
            let again = try sim.pluginState()
            #expect(again == first)
            #expect(sim.lastPluginState?.state == first)
            #expect(try sim.start() == nil)
            let started = try sim.pluginState()
            #expect(!started.pendingRequests.isEmpty, "\(started)")
            #expect(started != first, "the start's requests are in the state")
            try sim.advance(60)
            let later = try sim.pluginState()
            #expect(later.now == VirtualTime(seconds: 60)!)
            #expect(later.now != started.now)
        }
    }
}
