import HostTestSupport
import Testing

@testable import PluginHost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reaper reads a child's status without reaping it when its own thread is late
/// (a loaded machine): a connection that has seen the output end still names the status.
@Suite("Reaper")
struct ReaperTests {
    @Test(arguments: [("exit 7", PluginHost.ExitStatus.exited(7)), ("kill -KILL $$", .signaled(SIGKILL))])
    func peeksAtAnEndedChildWithoutReapingIt(script: String, expected: PluginHost.ExitStatus) throws {
        // Not through `PluginProcess`, whose reaper thread would reap it.
        let pid = try SpawnedProgram.endedUnreaped(shell: script)
        #expect(Reaper.peekStatus(of: pid) == expected)
        #expect(Reaper.peekStatus(of: pid) == expected, "the first peek must leave it reapable")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(PluginHost.ExitStatus(waitStatus: status) == expected)
        #expect(Reaper.peekStatus(of: pid) == nil, "nothing to peek at once reaped")
    }
}
