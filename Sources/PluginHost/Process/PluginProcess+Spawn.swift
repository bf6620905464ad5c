import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Spawning: `posix_spawn` with the child's stdin, stdout and stderr on pipes.
///
/// The pipes are created close-on-exec, and the child closes every descriptor but
/// its three pipes, so that no process inherits another one's pipe ends (which
/// would keep that one from ever seeing EOF).
extension PluginProcess {
    /// The child and the host's ends of its pipes.
    struct Spawned {
        let pid: pid_t
        let stdin: Int32
        let stdout: Int32
        let stderr: Int32
    }

    private static let spawnLock = Mutex(())

    /// A write to a dead child's stdin must fail with EPIPE, not kill the host.
    private static let ignoreSIGPIPE: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    /// Spawns `path` with `arguments` (not including argv[0]) and `environment`.
    static func spawn(path: String, arguments: [String], environment: [String: String]) throws(HostError) -> Spawned {
        ignoreSIGPIPE
        // One spawn at a time (the pipes are created close-on-exec anyway).
        return try spawnLock.withLock { _ throws(HostError) in
            try spawnLocked(path: path, arguments: arguments, environment: environment)
        }
    }

    private static func spawnLocked(
        path: String, arguments: [String], environment: [String: String]
    ) throws(HostError) -> Spawned {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        var errFromChild: [Int32] = [-1, -1]
        // Close-on-exec from birth, so that no spawn on another thread (ours or
        // Foundation's `Process`) inherits them.
        guard Libc.closeOnExecPipe(&toChild), Libc.closeOnExecPipe(&fromChild), Libc.closeOnExecPipe(&errFromChild)
        else {
            let why = String(cString: strerror(errno))
            for fd in toChild + fromChild + errFromChild where fd >= 0 { Glibc.close(fd) }
            throw .launchFailed("cannot create pipes: \(why)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errFromChild[1], 2)
        // And the child keeps nothing but these three: descriptors other code opened
        // without close-on-exec (a Foundation `Pipe` on another thread) would keep
        // another process's pipe open, so that it never sees EOF (seen as a 30 s stall
        // of two conformance tests under load).
        Libc.closeFrom(3, &actions)
        let argv = [path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }.sorted()
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnvp = envp.map { strdup($0) } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnvp { free(p) }
        }
        // The child starts with no signal blocked and every signal at its default,
        // whatever the spawning thread blocks or the host ignores (SIGPIPE).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // The child leads a process group of its own, so that stopping it stops whatever
        // it forked too (a child that keeps the plugin's stdout open would otherwise keep
        // the host reading for ever).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var childPID: pid_t = 0
        let rc = posix_spawn(&childPID, path, &actions, &attributes, &cArgv, &cEnvp)
        Glibc.close(toChild[0])
        Glibc.close(fromChild[1])
        Glibc.close(errFromChild[1])
        guard rc == 0 else {
            Glibc.close(toChild[1])
            Glibc.close(fromChild[0])
            Glibc.close(errFromChild[0])
            throw .launchFailed("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        return Spawned(pid: childPID, stdin: toChild[1], stdout: fromChild[0], stderr: errFromChild[0])
    }
}
