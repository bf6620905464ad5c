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
    /// Spawns `/bin/sh -c script` directly (not through `PluginProcess`, whose reaper
    /// thread would reap it) and waits, without reaping, until it has ended.
    static func endedChild(_ script: String) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(script), nil]
        defer { for arg in argv { free(arg) } }
        try #require(posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            try #require(errno == EINTR)
        }
        return pid
    }

    @Test(arguments: [("exit 7", PluginHost.ExitStatus.exited(7)), ("kill -KILL $$", .signaled(SIGKILL))])
    func peeksAtAnEndedChildWithoutReapingIt(script: String, expected: PluginHost.ExitStatus) throws {
        let pid = try Self.endedChild(script)
        #expect(Reaper.peekStatus(of: pid) == expected)
        #expect(Reaper.peekStatus(of: pid) == expected, "the first peek must leave it reapable")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(PluginHost.ExitStatus(waitStatus: status) == expected)
        #expect(Reaper.peekStatus(of: pid) == nil, "nothing to peek at once reaped")
    }
}
