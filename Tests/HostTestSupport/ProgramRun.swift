import Foundation
import Synchronization

/// One run of a built program, started with `posix_spawn` (not Foundation's `Process`,
/// whose `run()` crashed in `memcpy` with many runs at once, and whose SIGCHLD source
/// made a blocking write fail with EINTR inside a `try!`): its stdin given at once, its
/// stdout and stderr drained on threads of their own, its end awaited with `wait4`. The
/// one place the test kit starts a process.
package enum ProgramRun {
    /// What was seen.
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        /// Wall time from spawn to exit.
        package var seconds: Double
        /// The peak resident memory of the program or a process it waited for (`ru_maxrss`), KiB.
        package var peakKB: Int
        /// Its output, kept as ``run(_:_:environment:input:keep:hangLimit:)`` says.
        package var stdout: CapturedStream
        package var stderr: CapturedStream
        /// Whether it was killed at the hang limit.
        package var hung: Bool
    }

    /// A stream kept whole up to a size, or as its first and last bytes.
    package struct CapturedStream: Sendable {
        package var head: String
        package var tail: String
        package var bytes: Int
        /// The start and the end, with the size between them when some was dropped.
        package var text: String {
            bytes <= head.utf8.count + tail.utf8.count ? head + tail : head + "\n[… \(bytes) bytes …]\n" + tail
        }
    }

    /// Runs `path` with `arguments`, the whole `environment`, and `input` on its stdin
    /// (closed once written); keeps the first `keep` and the last `keep` bytes of each
    /// output stream; kills it with SIGKILL at `hangLimit`.
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String], input: [UInt8] = [],
        keep: Int = 64 << 20, hangLimit: Duration = .seconds(900)
    ) -> Outcome {
        ignoreSIGPIPE
        let stdin = Pipes.make()
        let out = Pipes.make()
        let err = Pipes.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        let argv = [path] + arguments
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, &cArgv, &cEnv)
        posix_spawn_file_actions_destroy(&actions)
        for p in cArgv + cEnv { free(p) }
        for fd in [stdin.read, out.write, err.write] { close(fd) }
        guard rc == 0 else {
            for fd in [stdin.write, out.read, err.read] { close(fd) }
            let why = "cannot start \(path): \(String(cString: strerror(rc)))"
            let empty = CapturedStream(head: "", tail: "", bytes: 0)
            return Outcome(
                status: 127, seconds: 0, peakKB: 0, stdout: empty,
                stderr: CapturedStream(head: why, tail: "", bytes: why.utf8.count), hung: false)
        }
        Pipes.feed(stdin.write, input)
        let stdout = Drain(out.read, keep: keep)
        let stderr = Drain(err.read, keep: keep)
        let exited = Mutex(false)
        let hung = Mutex(false)
        let limit = DispatchWorkItem {
            guard !exited.withLock({ $0 }) else { return }
            hung.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        let (whole, fraction) = hangLimit.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(whole) * 1_000_000_000 + Int(fraction / 1_000_000_000)), execute: limit)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        exited.withLock { $0 = true }
        limit.cancel()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(
            status: code, seconds: seconds, peakKB: usage.ru_maxrss, stdout: stdout.finish(), stderr: stderr.finish(),
            hung: hung.withLock { $0 })
    }

    /// A write to a program that has ended must fail with EPIPE, not end the tests.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// Pipes for a spawned program: created close-on-exec (`pipe2` where the C library has
/// it), so that no other process spawned meanwhile keeps an end open.
private enum Pipes {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

    static func make() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard fds.withUnsafeMutableBufferPointer({ pipe2($0.baseAddress!, O_CLOEXEC) }) == 0 else {
                fatalError("pipe2: \(errno)")
            }
        } else {
            guard pipe(&fds) == 0 else { fatalError("pipe: \(errno)") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        return (fds[0], fds[1])
    }

    /// Writes `bytes` to `fd` on a thread of its own (the program may read late, or never),
    /// then closes it.
    static func feed(_ fd: Int32, _ bytes: [UInt8]) {
        let thread = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(fd)
        }
        thread.start()
    }
}

/// Reads a descriptor to its end on a thread, keeping its first and last `keep` bytes.
private final class Drain: Sendable {
    private struct State {
        var head: [UInt8] = []
        var tail: [UInt8] = []
        var bytes = 0
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let done = DispatchSemaphore(value: 0)
    private let keep: Int

    init(_ fd: Int32, keep: Int) {
        self.keep = keep
        let thread = Thread { [shared, done] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                shared.state.withLock { s in
                    s.bytes += n
                    var chunk = buffer[0..<n]
                    if s.head.count < keep {
                        let take = min(keep - s.head.count, chunk.count)
                        s.head += chunk.prefix(take)
                        chunk = chunk.dropFirst(take)
                    }
                    s.tail += chunk
                    if s.tail.count > 2 * keep { s.tail.removeFirst(s.tail.count - keep) }
                }
            }
            close(fd)
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end (at most 10 s more: a process left behind may hold the pipe) and
    /// returns what was kept.
    func finish() -> ProgramRun.CapturedStream {
        _ = done.wait(timeout: .now() + .seconds(10))
        return shared.state.withLock { s in
            ProgramRun.CapturedStream(
                head: String(decoding: s.head, as: UTF8.self),
                tail: String(decoding: s.tail.suffix(keep), as: UTF8.self), bytes: s.bytes)
        }
    }
}
