import Dispatch
import Foundation
import PluginHost
import Synchronization

/// A plugin on the transport seam, for the conformance suite: bytes in exactly as
/// given, the output handed over as bytes (so that framing itself can be checked),
/// the end of stderr kept for failure reports.
///
/// The transport's reader thread blocks in `receive`; a waiter blocks on a semaphore
/// that thread signals. No polling. What has been read and not yet taken is bounded
/// (``bufferLimit``): past it the reader thread waits for ``take(deadline:)``, so a
/// plugin that writes faster than the suite reads is slowed down, never held whole.
final class PluginPipe: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var stdoutClosed = false
        /// Stopped: what is read from now on is dropped, and the reader never waits.
        var discarding = false
        var stderrTail: [UInt8] = []
        var killedByWatchdog = false
        /// When the process was seen to exit (its stdout may stay open: a process it
        /// started can hold it).
        var exited: (status: ExitStatus, at: DispatchTime)?
    }

    /// What the reader and stderr threads fill.
    private final class Received: Sendable {
        let state = Mutex(State())
        let arrived = DispatchSemaphore(value: 0)
        /// Signalled when bytes are taken (or the pipe stops): room for the reader.
        let room = DispatchSemaphore(value: 0)
    }

    private let transport: any PluginTransport
    private let received = Received()
    private static let stderrLimit = 4096
    /// The most bytes read from stdout and not yet taken (1 MiB).
    static let bufferLimit = 1 << 20

    /// Starts `executable` with `arguments`; `environment` is added to the host's own.
    init(executable: String, arguments: [String], environment: [String: String]) throws(HostError) {
        let launcher = PluginLauncher(
            executable: executable, arguments: arguments, environment: environment, stderrPrefix: "")
        let received = self.received
        transport = try launcher.start(stderrLine: { line in
            received.state.withLock { s in
                s.stderrTail.append(contentsOf: Array(line.utf8.prefix(Self.stderrLimit)) + [0x0A])
                let excess = s.stderrTail.count - Self.stderrLimit
                if excess > 0 { s.stderrTail.removeFirst(excess) }
            }
        })
        TransportReading.bytes(
            of: transport, thread: "conformance-stdout",
            onBytes: { bytes in
                while true {
                    let stored = received.state.withLock { s -> Bool in
                        if s.discarding { return true }
                        guard s.pending.isEmpty || s.pending.count + bytes.count <= Self.bufferLimit else {
                            return false
                        }
                        s.pending.append(contentsOf: bytes)
                        return true
                    }
                    if stored { break }
                    received.room.wait()
                }
                received.arrived.signal()
            },
            onEnd: {
                received.state.withLock { $0.stdoutClosed = true }
                received.arrived.signal()
            })
        // Wakes a waiter when the process ends (``stop()`` reaps it, so this ends too).
        let watched = transport
        let watcher = Thread {
            guard let status = watched.waitForExit(timeout: .seconds(86_400)) else { return }
            received.state.withLock { $0.exited = (status, .now()) }
            received.arrived.signal()
        }
        watcher.name = "conformance-exit"
        watcher.start()
    }

    /// Writes bytes to stdin; false when the plugin no longer reads (EPIPE).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        (try? transport.send(bytes)) != nil
    }

    /// Writes bytes to stdin, but kills the plugin if the write is still blocked
    /// at `deadline` (a plugin that stops reading must not hang the suite). False when
    /// the write failed or the plugin was killed for it.
    ///
    /// The write and the watchdog settle who came first under one lock: a watchdog
    /// that starts running as the write returns (too late for `cancel()` to stop it)
    /// finds the write finished and leaves the plugin alone. `arm` schedules the
    /// watchdog and returns what cancels it (by default a work item on a global queue).
    @discardableResult
    func write(
        _ bytes: [UInt8], deadline: DispatchTime,
        arm: (DispatchTime, @escaping @Sendable () -> Void) -> () -> Void = { deadline, body in
            let item = DispatchWorkItem(block: body)
            DispatchQueue.global().asyncAfter(deadline: deadline, execute: item)
            return { item.cancel() }
        }
    ) -> Bool {
        let race = WriteRace()
        let cancel = arm(deadline) { [self] in
            guard race.settle(.killed) else { return }
            received.state.withLock { $0.killedByWatchdog = true }
            transport.terminate()
        }
        let ok = write(bytes)
        let finished = race.settle(.finished)
        cancel()
        return finished && ok
    }

    /// Whether a write blocked past its deadline and the plugin was killed for it.
    var killedByWatchdog: Bool { received.state.withLock { $0.killedByWatchdog } }

    /// Closes stdin (end of input).
    func closeStdin() { transport.closeInput() }

    /// Waits until stdout has bytes not yet taken, or has closed, up to `deadline`, and
    /// at most `afterExit` once the process has exited (a plugin that has exited
    /// writes nothing more, even when something it started holds its stdout open);
    /// hands those bytes over (they are no longer held here) with whether stdout has
    /// closed (all of it taken then). Nil on timeout.
    func take(deadline: DispatchTime, afterExit: DispatchTimeInterval = .seconds(2)) -> (bytes: [UInt8], closed: Bool)?
    {
        while true {
            let ready: (bytes: [UInt8], closed: Bool)? = received.state.withLock { s in
                guard !s.pending.isEmpty || s.stdoutClosed else { return nil }
                defer { s.pending = [] }
                return (s.pending, s.stdoutClosed)
            }
            if let ready {
                received.room.signal()
                return ready
            }
            let exitedAt = received.state.withLock { $0.exited?.at }
            if received.arrived.wait(timeout: exitedAt.map { min(deadline, $0 + afterExit) } ?? deadline) == .timedOut {
                return nil
            }
        }
    }

    /// How the process ended, once it has (seen by the watcher thread).
    var exitStatus: ExitStatus? { received.state.withLock { $0.exited?.status } }

    /// The last few KiB of stderr, for reports.
    var stderrTail: String { String(decoding: received.state.withLock { $0.stderrTail }, as: UTF8.self) }

    /// Waits for the process to exit, up to `timeout`.
    func waitForExit(timeout: Duration) -> ExitStatus? {
        transport.waitForExit(timeout: timeout)
    }

    /// Ends the plugin: closes stdin, waits up to `grace`, then stops it (SIGTERM, then
    /// SIGKILL to its process group); reaps it. What it writes meanwhile is dropped. A
    /// plugin that conforms exits at once at the end of its input; the suite has
    /// judged what it needed by then, so it does not wait long for one that does not.
    @discardableResult
    func stop(grace: Duration = .milliseconds(250)) -> ExitStatus {
        discard()
        return transport.close(grace: grace)
    }

    /// Stops the plugin at once (SIGKILL to its process group): it broke a bound.
    func kill() {
        discard()
        transport.terminate()
    }

    /// From now on, what is read is dropped, and a reader waiting for room goes on.
    private func discard() {
        received.state.withLock { s in
            s.discarding = true
            s.pending = []
        }
        received.room.signal()
    }
}

/// Who ended a watched write first: the write, or its watchdog.
final class WriteRace: Sendable {
    /// The side that ended it.
    enum Winner { case finished, killed }
    private let winner = Mutex<Winner?>(nil)

    /// Claims the outcome for `side`; true if it is the first to, false if the other was.
    func settle(_ side: Winner) -> Bool {
        winner.withLock { w in
            guard w == nil else { return w == side }
            w = side
            return true
        }
    }
}
