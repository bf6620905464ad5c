#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SpawnedProgram {
    /// Why ``endedUnreaped(shell:)`` could not give a child.
    package struct SpawnFailure: Error, CustomStringConvertible {
        /// The call that failed and its errno.
        package let description: String
    }

    /// Runs `/bin/sh -c script` with no reaper (unlike a ``SpawnedProgram``) and waits,
    /// without reaping it, until it has ended: for tests of code that must read an ended
    /// child's status without reaping it. The caller reaps it (`waitpid`).
    package static func endedUnreaped(shell script: String) throws(SpawnFailure) -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(script), nil]
        defer { for arg in argv { free(arg) } }
        let rc = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
        guard rc == 0 else { throw SpawnFailure(description: "posix_spawn /bin/sh: errno \(rc)") }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { throw SpawnFailure(description: "waitid \(pid): errno \(errno)") }
        }
        return pid
    }
}
