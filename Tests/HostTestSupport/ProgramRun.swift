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
        /// The signal that ended it, when one did.
        package var signal: Int32?
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
        /// The first bytes, and the last ones after them (all of it when nothing was dropped).
        package var headBytes: [UInt8]
        package var tailBytes: [UInt8]
        /// How many bytes the stream had.
        package var bytes: Int
        /// The first bytes as text.
        package var head: String { String(decoding: headBytes, as: UTF8.self) }
        /// The last bytes as text.
        package var tail: String { String(decoding: tailBytes, as: UTF8.self) }
        /// Whether every byte was kept.
        package var isWhole: Bool { bytes == headBytes.count + tailBytes.count }
        /// Everything kept, as bytes.
        package var kept: [UInt8] { headBytes + tailBytes }
        /// The start and the end, with the size between them when some was dropped.
        package var text: String { isWhole ? head + tail : head + "\n[… \(bytes) bytes …]\n" + tail }

        /// A stream of `text` alone.
        package init(text: String) {
            headBytes = Array(text.utf8)
            tailBytes = []
            bytes = headBytes.count
        }

        init(headBytes: [UInt8], tailBytes: [UInt8], bytes: Int) {
            self.headBytes = headBytes
            self.tailBytes = tailBytes
            self.bytes = bytes
        }
    }

    /// Runs `path` with `arguments`, the whole `environment`, and `input` on its stdin
    /// (closed once written); keeps the first `keep` and the last `keep` bytes of each
    /// output stream; kills it with SIGKILL at `hangLimit`.
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String], input: [UInt8] = [],
        keep: Int = 64 << 20, hangLimit: Duration = .seconds(900)
    ) -> Outcome {
        let program: SpawnedProgram
        do {
            program = try SpawnedProgram(path, arguments, environment: environment)
        } catch {
            return Outcome(
                status: 127, seconds: 0, peakKB: 0, stdout: CapturedStream(text: ""),
                stderr: CapturedStream(text: "\(error)"), hung: false)
        }
        let start = ContinuousClock.now
        let pid = program.pid
        Thread.detachNewThread {
            program.write(input)
            program.closeStdin()
        }
        let stdout = Drain(program.stdout, keep: keep)
        let stderr = Drain(program.stderr, keep: keep)
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
        let (termination, peakKB) = program.waitWithUsage()
        let code = termination.code
        exited.withLock { $0 = true }
        limit.cancel()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // The program owns the pipes the drains read: it lives until they have ended.
        return withExtendedLifetime(program) {
            Outcome(
                status: code, signal: termination.signal, seconds: seconds, peakKB: peakKB, stdout: stdout.finish(),
                stderr: stderr.finish(), hung: hung.withLock { $0 })
        }
    }
}

/// Pipes for a spawned program: created close-on-exec (`pipe2` where the C library has
/// it), so that no other process spawned meanwhile keeps an end open.
enum Pipes {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addCloseFrom: AddCloseFrom? = dlsym(
        dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np"
    ).map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Adds "close every descriptor from 3 up" to a spawn's actions (glibc 2.34 and later):
    /// the child keeps its three pipes only, not a file another thread has open for
    /// writing (exec'ing that file would then fail with ETXTBSY while the child lives).
    static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        guard let addCloseFrom else { return }
        _ = withUnsafeMutablePointer(to: &actions) { addCloseFrom(UnsafeMutableRawPointer($0), 3) }
    }

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
}

/// Reads a descriptor to its end on a thread, keeping its first and last `keep` bytes.
/// The thread reads a duplicate of its own (``SpawnedProgram/duplicate(_:)``), so that
/// the owner closing the descriptor after ``finish()`` gave up cannot hand the thread
/// another test's pipe.
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
        let own = SpawnedProgram.duplicate(fd)
        let thread = Thread { [shared, done] in
            defer { if own >= 0 { close(own) } }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(own, &buffer, buffer.count)
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
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end (at most 10 s more: a process left behind may hold the pipe) and
    /// returns what was kept.
    func finish() -> ProgramRun.CapturedStream {
        _ = done.wait(timeout: .now() + .seconds(10))
        return shared.state.withLock { s in
            ProgramRun.CapturedStream(headBytes: s.head, tailBytes: Array(s.tail.suffix(keep)), bytes: s.bytes)
        }
    }
}
