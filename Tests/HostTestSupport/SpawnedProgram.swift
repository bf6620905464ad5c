import Foundation
import Synchronization

/// A program started by a test with `posix_spawn`, its stdin, stdout and stderr on pipes
/// (close-on-exec), for the tests that talk to a process as it runs; ``ProgramRun`` runs
/// one to its end. The test kit's one way to start a process: Foundation's `Process`
/// crashed in `Process.run()` (a `memcpy` in the spawn) when many tests started programs
/// at once, and under ThreadSanitizer.
///
/// ```swift
/// let program = try SpawnedProgram(Binaries.plugin, ["--events"])
/// program.write(Array(#"{"jsonrpc":"2.0","id":1,"method":"plugin/state"}"#.utf8) + [0x0A])
/// program.closeStdin()
/// let status = program.wait()   // 0, or 128 + the signal that ended it
/// ```
package final class SpawnedProgram: Sendable {
    /// The program's process id.
    package let pid: pid_t
    /// The read ends of its stdout and stderr (closed when this object goes).
    package let stdout: Int32
    package let stderr: Int32
    private let stdin: Mutex<Int32>
    private let reaper: Reaping

    /// How a program ended.
    package struct Termination: Sendable, Equatable {
        /// Its exit status, when it exited.
        package var exitCode: Int32?
        /// The signal that ended it, when one did.
        package var signal: Int32?
        /// The exit status, or 128 + the signal, as a shell reports it.
        package var code: Int32 { signal.map { 128 + $0 } ?? exitCode ?? -1 }
    }

    /// Starts `path` with `arguments`; `environment` is the whole environment (by
    /// default this process's).
    package init(
        _ path: String, _ arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        _ = SpawnedProgram.ignoreSIGPIPE
        let input = Pipes.make()
        let out = Pipes.make()
        let err = Pipes.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        Pipes.closeTheRest(&actions)
        var cArgv = ([path] + arguments).map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgv + cEnv { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, &cArgv, &cEnv)
        for fd in [input.read, out.write, err.write] { close(fd) }
        guard rc == 0 else {
            for fd in [input.write, out.read, err.read] { close(fd) }
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        reaper = Reaping(pid: child)
        stdin = Mutex(input.write)
        stdout = out.read
        stderr = err.read
    }

    /// Why a program could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Writes all of `bytes` to its stdin; false once it no longer reads (EPIPE) or stdin is closed.
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        stdin.withLock { fd in
            guard fd >= 0 else { return false }
            return bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { return false }
                    offset += n
                }
                return true
            }
        }
    }

    /// Closes its stdin: it sees the end of its input.
    package func closeStdin() {
        stdin.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Reads one chunk of its stdout into `buffer`: the byte count, 0 at the end.
    package func readStdout(into buffer: inout [UInt8]) -> Int {
        Self.read(stdout, into: &buffer)
    }

    /// A close-on-exec duplicate of `fd` for a thread that reads on its own, closed by
    /// that thread at the end: the owner may then close `fd` whenever it likes without
    /// the thread reading whatever pipe or file is given the freed number next.
    package static func duplicate(_ fd: Int32) -> Int32 { fcntl(fd, F_DUPFD_CLOEXEC, 0) }

    /// Reads `fd` to its end on a thread of its own (a duplicate, ``duplicate(_:)``) and
    /// drops what it read: a program that writes there never blocks.
    package static func discardOnThread(_ fd: Int32) {
        let own = duplicate(fd)
        Thread.detachNewThread {
            _ = readToEnd(own)
            if own >= 0 { close(own) }
        }
    }

    /// Its stderr (or stdout) from here to the end.
    package static func readToEnd(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, into: &buffer), n > 0 { all += buffer[0..<n] }
        return all
    }

    /// One `read(2)`, EINTR retried: the byte count, 0 at the end or on an error.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            return max(n, 0)
        }
    }

    /// Sends it a signal (unless it has ended).
    package func kill(_ signal: Int32) {
        if reaper.ended == nil { _ = Glibc.kill(pid, signal) }
    }

    /// Waits for it to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    package func wait() -> Int32 { waitWithUsage().termination.code }

    /// Waits for it to end: how, and its peak resident memory (or that of a process it
    /// waited for) in KiB.
    package func waitWithUsage() -> (termination: Termination, peakKB: Int) { reaper.wait() }

    /// Waits up to `timeout` for it to end: how, or nil while it runs.
    package func wait(timeout: Duration) -> Termination? { reaper.wait(timeout: timeout) }

    /// Whether it still runs.
    package var isRunning: Bool { reaper.ended == nil }

    deinit {
        if reaper.ended == nil {
            _ = Glibc.kill(pid, SIGKILL)
            _ = reaper.wait()
        }
        closeStdin()
        close(stdout)
        close(stderr)
    }

    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// A thread blocked in `wait4` for one child, and what it saw.
private final class Reaping: Sendable {
    private final class Seen: Sendable {
        let state = Mutex<(termination: SpawnedProgram.Termination, peakKB: Int)?>(nil)
    }

    private let seen = Seen()
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        Thread.detachNewThread { [seen, done] in
            var raw: Int32 = 0
            var usage = rusage()
            while wait4(pid, &raw, 0, &usage) < 0, errno == EINTR {}
            let termination =
                (raw & 0x7F) == 0
                ? SpawnedProgram.Termination(exitCode: (raw >> 8) & 0xFF, signal: nil)
                : SpawnedProgram.Termination(exitCode: nil, signal: raw & 0x7F)
            seen.state.withLock { $0 = (termination, usage.ru_maxrss) }
            done.signal()
        }
    }

    var ended: SpawnedProgram.Termination? { seen.state.withLock { $0?.termination } }

    func wait() -> (termination: SpawnedProgram.Termination, peakKB: Int) {
        done.wait()
        done.signal()  // let other waiters through
        return seen.state.withLock { $0! }
    }

    func wait(timeout: Duration) -> SpawnedProgram.Termination? {
        let (whole, fraction) = timeout.components
        let interval = DispatchTimeInterval.nanoseconds(Int(whole) * 1_000_000_000 + Int(fraction / 1_000_000_000))
        guard done.wait(timeout: .now() + interval) == .success else { return nil }
        done.signal()
        return ended
    }
}
