import Foundation
import HostTestSupport
import Testing

@testable import PluginHost
@testable import PluginSoak

/// `FaultLatency`'s waits block in the kernel instead of polling /proc.
@Suite("FaultLatency waits")
struct FaultLatencyWaitTests {
    /// A stopped child is reported stopped, and goes on after SIGCONT.
    @Test func aStoppedChildIsSeenStopped() throws {
        let child = try PluginProcess(options: .init(executable: Binaries.plugin), stderrLine: { _ in })
        defer { child.close(grace: .milliseconds(100)) }
        #expect(FaultLatency.waitUntilServing(child), "one round trip on its pipes")
        kill(child.pid, SIGSTOP)
        #expect(FaultLatency.waitUntilStopped(child.pid))
        kill(child.pid, SIGCONT)
        #expect(child.exitStatus == nil)
    }

    /// A child that exits instead of stopping: the wait returns false at once (no timeout
    /// to run out), and leaves the exit for the reaper.
    @Test func anExitingChildEndsTheWaitAndIsStillReaped() throws {
        let child = try PluginProcess(
            options: .init(executable: "/bin/sh", arguments: ["-c", "sleep 0.1; exit 3"]), stderrLine: { _ in })
        let started = ContinuousClock.now
        #expect(!FaultLatency.waitUntilStopped(child.pid))
        #expect(ContinuousClock.now - started < .seconds(5), "returned when the child exited")
        #expect(child.waitForExit(timeout: .seconds(10)) == .exited(3))
        child.close(grace: .milliseconds(100))
    }
}
