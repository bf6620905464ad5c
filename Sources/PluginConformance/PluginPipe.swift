import Dispatch
import Foundation
import PluginHost
import Synchronization

/// A plugin on the transport seam, for the conformance suite: bytes in exactly as
/// given, the output kept as bytes (so that framing itself can be checked), stderr
/// kept for failure reports.
///
/// The transport's reader thread blocks in `receive`; a waiter blocks on a semaphore
/// that thread signals. No polling.
final class PluginPipe: Sendable {
    private struct State {
        var stdout: [UInt8] = []
        var stdoutClosed = false
        var stderrTail: [UInt8] = []
        var killedByWatchdog = false
    }

    /// What the reader and stderr threads fill.
    private final class Received: Sendable {
        let state = Mutex(State())
        let arrived = DispatchSemaphore(value: 0)
    }

    private let transport: any PluginTransport
    private let received = Received()
    private static let stderrLimit = 4096

    /// Starts `executable` with `arguments`; `environment` is added to the host's own.
    init(executable: String, arguments: [String], environment: [String: String]) throws(HostError) {
        let launcher = PluginLauncher(
            executable: executable, arguments: arguments, environment: environment, stderrPrefix: "")
        let received = self.received
        transport = try launcher.start(stderrLine: { line in
            received.state.withLock { s in
                s.stderrTail.append(contentsOf: Array(line.utf8) + [0x0A])
                let excess = s.stderrTail.count - Self.stderrLimit
                if excess > 0 { s.stderrTail.removeFirst(excess) }
            }
        })
        TransportReading.bytes(
            of: transport, thread: "conformance-stdout",
            onBytes: { bytes in
                received.state.withLock { $0.stdout.append(contentsOf: bytes) }
                received.arrived.signal()
            },
            onEnd: {
                received.state.withLock { $0.stdoutClosed = true }
                received.arrived.signal()
            })
    }

    /// Writes bytes to stdin; false when the plugin no longer reads (EPIPE).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        (try? transport.send(bytes)) != nil
    }

    /// Writes bytes to stdin, but kills the plugin if a large write is still blocked
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
        guard bytes.count > 16_384 else { return write(bytes) }
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

    /// Waits until stdout holds more than `count` bytes or has closed, up to
    /// `deadline`. Returns the bytes after the first `count` and whether stdout
    /// has closed; nil on timeout.
    func read(after count: Int, deadline: DispatchTime) -> (bytes: [UInt8], closed: Bool)? {
        while true {
            let ready: (bytes: [UInt8], closed: Bool)? = received.state.withLock { s in
                s.stdout.count > count || s.stdoutClosed
                    ? (Array(s.stdout[min(count, s.stdout.count)...]), s.stdoutClosed) : nil
            }
            if let ready { return ready }
            if received.arrived.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Everything written to stdout so far.
    var stdout: [UInt8] { received.state.withLock { $0.stdout } }

    /// The last few KiB of stderr, for reports.
    var stderrTail: String { String(decoding: received.state.withLock { $0.stderrTail }, as: UTF8.self) }

    /// Waits for the process to exit, up to `timeout`.
    func waitForExit(timeout: DispatchTimeInterval) -> ExitStatus? {
        transport.waitForExit(timeout: Duration(timeout))
    }

    /// Ends the plugin: closes stdin, waits up to `grace`, then stops it; reaps it.
    @discardableResult
    func stop(grace: Duration = .seconds(2)) -> ExitStatus { transport.close(grace: grace) }
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

extension Duration {
    /// A dispatch interval as a duration (`never` as a day).
    fileprivate init(_ interval: DispatchTimeInterval) {
        switch interval {
        case .seconds(let n): self = .seconds(n)
        case .milliseconds(let n): self = .milliseconds(n)
        case .microseconds(let n): self = .microseconds(n)
        case .nanoseconds(let n): self = .nanoseconds(n)
        default: self = .seconds(86_400)
        }
    }
}
