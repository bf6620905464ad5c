import Foundation
import Synchronization

/// One run of `plugin-host` against `hostile-plugin`, measured from outside: exit
/// status, wall time, the host's peak resident memory, what it printed (the first and
/// last 16 KiB of each stream, and the byte counts) and the processes of the run left
/// alive once the host has exited. For the hostile-peer suite (`HostilePeerTests`,
/// `scripts/hostile-peers.sh`).
///
/// Every process of the run carries a tag in its environment (``TaggedProcesses``), which
/// is how leftovers are found: the host, the hostile proxy, the real plugin behind it and
/// anything they started.
package struct HostileRun: Sendable {
    /// What was seen.
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended the host.
        package var status: Int32
        /// Wall time from spawn to exit.
        package var seconds: Double
        /// The host's peak resident memory (`ru_maxrss`), KiB.
        package var peakKB: Int
        /// The start and end of stdout and stderr, and their sizes.
        package var stdout: CapturedStream
        package var stderr: CapturedStream
        /// Processes of the run still alive after the host exited (killed after counting).
        package var leftovers: [Int32]
        /// Whether the host had to be killed at the hang limit.
        package var hung: Bool
    }

    /// A stream kept as its first and last bytes.
    package struct CapturedStream: Sendable {
        package var head: String
        package var tail: String
        package var bytes: Int
        /// The start and the end, with the size between them when some was dropped.
        package var text: String { bytes <= 32 << 10 ? head + tail : head + "\n[… \(bytes) bytes …]\n" + tail }
    }

    /// Runs `plugin-host ARGUMENTS` with `HOSTILE_MODE=mode` (and `environment`) and its
    /// stdin from `/dev/null`; kills it at `hangLimit`.
    package static func run(
        _ arguments: [String], mode: String, environment: [String: String] = [:], hangLimit: Duration = .seconds(120)
    ) -> Outcome {
        let tag = TaggedProcesses()
        var env = ProcessInfo.processInfo.environment
        env["HOSTILE_MODE"] = mode
        for (k, v) in tag.environment(environment) { env[k] = v }
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else { fatalError("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = [Binaries.host] + arguments
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, Binaries.host, &actions, nil, &cArgv, &cEnv)
        posix_spawn_file_actions_destroy(&actions)
        for p in cArgv + cEnv { free(p) }
        close(out[1])
        close(err[1])
        guard rc == 0 else { fatalError("posix_spawn \(Binaries.host): \(rc)") }
        let stdout = Drain(out[0])
        let stderr = Drain(err[0])
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
        let seconds =
            Double((ContinuousClock.now - start).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - start).components.seconds)
        let leftovers = tag.running()
        for p in leftovers { kill(p, SIGKILL) }
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(
            status: code, seconds: seconds, peakKB: usage.ru_maxrss, stdout: stdout.finish(), stderr: stderr.finish(),
            leftovers: leftovers, hung: hung.withLock { $0 })
    }
}

/// Reads a descriptor to its end on a thread, keeping the first and last 16 KiB.
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
    private static let keep = 16 << 10

    init(_ fd: Int32) {
        let thread = Thread { [shared, done] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                shared.state.withLock { s in
                    s.bytes += n
                    var chunk = buffer[0..<n]
                    if s.head.count < Drain.keep {
                        let take = min(Drain.keep - s.head.count, chunk.count)
                        s.head += chunk.prefix(take)
                        chunk = chunk.dropFirst(take)
                    }
                    s.tail += chunk
                    if s.tail.count > 2 * Drain.keep { s.tail.removeFirst(s.tail.count - Drain.keep) }
                }
            }
            close(fd)
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end (at most 10 s: a leftover may hold the pipe) and returns what was kept.
    func finish() -> HostileRun.CapturedStream {
        _ = done.wait(timeout: .now() + .seconds(10))
        return shared.state.withLock { s in
            HostileRun.CapturedStream(
                head: String(decoding: s.head, as: UTF8.self),
                tail: String(decoding: s.tail.suffix(Drain.keep), as: UTF8.self), bytes: s.bytes)
        }
    }
}
