import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process with its stdin, stdout and stderr on pipes, reaped by a
/// dedicated thread that blocks in `waitpid`.
///
/// The pipes are created close-on-exec, and the child closes every descriptor but
/// its three pipes, so that no process inherits another one's pipe ends (which
/// would keep that one from ever seeing EOF).
package final class ChildProcess: Sendable {
    /// Why a spawn failed.
    package struct SpawnError: Error, CustomStringConvertible {
        package let description: String
    }

    package let pid: pid_t
    /// Write end of the child's stdin (-1 once closed).
    private let stdinFD: Mutex<Int32>
    /// Read end of the child's stdout.
    package let stdoutFD: Int32
    /// Read end of the child's stderr.
    package let stderrFD: Int32
    private let exitState = Mutex<ExitStatus?>(nil)
    private let exited = DispatchSemaphore(value: 0)

    /// Spawns `path` with `arguments` (not including argv[0]) and `environment`.
    package init(path: String, arguments: [String], environment: [String: String]) throws(SpawnError) {
        ChildProcess.ignoreSIGPIPE
        // One spawn at a time (the pipes are created close-on-exec anyway).
        let (childPID, toChild, fromChild, errFromChild) = try ChildProcess.spawnLock.withLock { _ throws(SpawnError) in
            try ChildProcess.spawn(path: path, arguments: arguments, environment: environment)
        }
        pid = childPID
        stdinFD = Mutex(toChild[1])
        stdoutFD = fromChild[0]
        stderrFD = errFromChild[0]
        let reaper = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            exitState.withLock { $0 = ExitStatus(waitStatus: status) }
            exited.signal()
        }
        reaper.start()
    }

    private static let spawnLock = Mutex(())

    private static func spawn(path: String, arguments: [String], environment: [String: String]) throws(SpawnError) -> (pid_t, [Int32], [Int32], [Int32]) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        var errFromChild: [Int32] = [-1, -1]
        // Close-on-exec from birth, so that no spawn on another thread (ours or
        // Foundation's `Process`) inherits them.
        guard Libc.closeOnExecPipe(&toChild), Libc.closeOnExecPipe(&fromChild), Libc.closeOnExecPipe(&errFromChild) else {
            let why = String(cString: strerror(errno))
            for fd in toChild + fromChild + errFromChild where fd >= 0 { close(fd) }
            throw SpawnError(description: "cannot create pipes: \(why)")
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var childPID: pid_t = 0
        let rc = posix_spawn(&childPID, path, &actions, &attributes, &cArgv, &cEnvp)
        close(toChild[0])
        close(fromChild[1])
        close(errFromChild[1])
        guard rc == 0 else {
            close(toChild[1])
            close(fromChild[0])
            close(errFromChild[0])
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(rc)))")
        }
        return (childPID, toChild, fromChild, errFromChild)
    }

    /// A write to a dead child's stdin must fail with EPIPE, not kill the host.
    private static let ignoreSIGPIPE: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    /// How it ended, or nil while it runs.
    package var exitStatus: ExitStatus? { exitState.withLock { $0 } }

    /// Waits until it has exited, up to `timeout`; returns the status or nil.
    package func waitForExit(timeout: DispatchTimeInterval) -> ExitStatus? {
        if let status = exitStatus { return status }
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // let other waiters through too
        return exitStatus
    }

    /// Writes all of `bytes` to the child's stdin; returns an errno on failure.
    package func writeStdin(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        stdinFD.withLock { fd in
            guard fd >= 0 else { return EPIPE }
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    /// Closes the child's stdin (it sees EOF).
    package func closeStdin() {
        stdinFD.withLock { fd in
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }

    /// Sends a signal unless it has already been reaped.
    package func kill(_ signal: Int32) {
        if exitStatus == nil { _ = sendSignal(pid, signal) }
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#elseif canImport(Darwin)
    private let sendSignal = Darwin.kill
#endif
