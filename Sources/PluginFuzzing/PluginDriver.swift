import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// Runs scripts of steps against one plugin (a process or the engine), pipelined: all of a
/// script's frames are written at once, then the replies are read up to a
/// barrier request's answer. One plugin serves many cases through `plugin/reset`.
///
/// Everything read is bounded (``PeerLimits``): one script's replies within
/// ``PeerLimits/maxHeldFrames`` and ``PeerLimits/maxHeldBytes``, each frame within
/// ``PeerLimits/maxFrameBytes``, the wait for the barrier within ``timeout`` and the
/// run's ``deadline``, the plugin's stderr within a ``StderrTail``. Past a bound, a frame
/// that is not one, or output while no script runs, the plugin is stopped and every
/// later script fails with the same ``DriverError``, the plugin's last stderr lines with it.
public final class PluginDriver: Sendable {
    private struct Inbox {
        var frames: [[UInt8]] = []
        var held: OutputMeter
        var barrier: [UInt8]?
        /// A script is out and its barrier's answer has not come: what arrives is its.
        var running = false
        var barrierSeen = false
        var closed = false
        var status: ExitStatus?
        var leftover = 0
        var framesEver = 0
        var failure: DriverError?
    }

    private let transport: any PluginTransport
    private let inbox: Mutex<Inbox>
    private let signal = NSCondition()
    private let counter = Mutex(0)
    /// How long a script may take before the plugin is declared hung.
    let timeout: TimeInterval
    /// ``timeout`` unless one is given: 30 s.
    public static let defaultTimeout: TimeInterval = 30
    /// What the driver holds from the plugin.
    public let limits: PeerLimits
    /// When the run's time runs out: a script still waiting at its ``FuzzDeadline/hardStop`` fails.
    public let deadline: FuzzDeadline
    /// The plugin's last stderr lines (they are not forwarded).
    public let stderrTail: StderrTail

    /// Starts the plugin (its stderr kept in ``stderrTail``, not forwarded) and reads its
    /// output on a thread.
    public init(
        plugin: PluginLauncher, timeout: TimeInterval = defaultTimeout, limits: PeerLimits = .default,
        deadline: FuzzDeadline = .none
    ) throws(DriverError) {
        self.timeout = timeout
        self.limits = limits
        self.deadline = deadline
        let tail = StderrTail(limits: limits)
        stderrTail = tail
        inbox = Mutex(Inbox(held: OutputMeter(frames: limits.maxHeldFrames, bytes: limits.maxHeldBytes)))
        do {
            transport = try plugin.start(stderrLine: { tail.append($0) })
        } catch {
            throw DriverError.notStarted(error.description).with(stderr: tail.lines)
        }
        TransportReading.frames(
            of: transport, thread: "driver-stdout",
            onFrame: { [weak self] in self?.received($0) },
            onFramingError: { [weak self] in self?.broke(.junk($0.description)) },
            onEnd: { [weak self] status, leftover in self?.closed(status, leftover: leftover) })
    }

    /// The plugin's process id, when it runs as a process.
    public var pid: Int32? { (transport as? PluginProcess)?.pid }

    private func received(_ frame: ArraySlice<UInt8>) {
        signal.lock()
        let stop = inbox.withLock { s -> Bool in
            s.framesEver += 1
            guard s.failure == nil else { return false }
            guard s.running else {
                s.failure = .outsideStep(
                    "after the answer that closed a case, before the next case was sent: \(Self.excerpt(frame))")
                return true
            }
            if let b = s.barrier, frame.starts(with: b) {
                s.barrierSeen = true
                s.running = false
            } else if !Self.looksLikeJSON(frame) {
                s.failure = .junk("a line that is not JSON: \(Self.excerpt(frame))")
                s.frames = []
                return true
            } else if let over = s.held.add(bytes: frame.count) {
                s.failure = .flooding("\(over) written for one case")
                s.frames = []
                return true
            } else {
                s.frames.append(Array(frame))
            }
            return false
        }
        signal.signal()
        signal.unlock()
        if stop { transport.terminate() }
    }

    /// A failure the reader saw: kept for the script waiting (and every later one); the plugin is stopped.
    private func broke(_ failure: DriverError) {
        signal.lock()
        let first = inbox.withLock { s -> Bool in
            guard s.failure == nil else { return false }
            s.failure = failure
            s.frames = []
            return true
        }
        signal.signal()
        signal.unlock()
        if first { transport.terminate() }
    }

    private func closed(_ status: ExitStatus?, leftover: Int) {
        signal.lock()
        inbox.withLock {
            $0.closed = true
            $0.status = status
            $0.leftover = leftover
        }
        signal.signal()
        signal.unlock()
    }

    /// Writes the steps (each framed as ndjson) then a barrier, and returns every
    /// frame the plugin wrote before the barrier's answer, parsed.
    public func run(_ steps: [FuzzStep]) throws(DriverError) -> [JSONValue] {
        try PluginDriver.parseAll(runRaw(encoded: PluginDriver.encode(steps)))
    }

    /// Like ``run(_:)`` with pre-encoded frames, returning the frames unparsed.
    public func runRaw(encoded: [UInt8]) throws(DriverError) -> [[UInt8]] {
        let n = counter.withLock { c in
            c += 1
            return c
        }
        let barrierID = "~barrier-\(n)"
        var bytes = encoded
        MessageWriter.appendRequest(id: .string(barrierID), method: OSPendingTaskRequests.name, params: nil, to: &bytes)
        bytes.append(0x0A)
        // The barrier's answer starts with its id (keys are sorted: "id" comes first).
        let prefix = Array(#"{"id":"\#(barrierID)""#.utf8)
        let early = inbox.withLock { s -> DriverError? in
            if let failure = s.failure { return failure }
            if s.closed { return Self.ended(s) }
            s.frames = []
            s.held.reset()
            s.barrier = prefix
            s.barrierSeen = false
            s.running = true
            return nil
        }
        if let early { throw fail(early) }
        // A script larger than a pipe holds blocks the write until the plugin reads it:
        // bounded like the wait for its answers (smaller ones fit the emptied pipe).
        let limit = writeLimit
        let watchdog = bytes.count > Self.unwatchedScriptBytes ? watchWrite(limit.seconds) : nil
        defer { watchdog?.finish() }
        do {
            try transport.send(bytes)
            if watchdog?.finish() == true { throw HostError.ioFailure("stopped") }
        } catch {
            if watchdog?.finish() == true {
                throw fail(
                    limit.byDeadline
                        ? .timeUp(received: 0) : .hung(received: 0, seconds: limit.seconds, reading: true))
            }
            // The plugin may have ended: its output's end says how (wait for it a little).
            signal.lock()
            _ = inbox.withLock { $0.closed } || signal.wait(until: Date().addingTimeInterval(2))
            signal.unlock()
            let seen = inbox.withLock { s in s.failure ?? (s.closed ? Self.ended(s) : nil) }
            throw fail(seen ?? .io("cannot write to the plugin: \(error)"))
        }
        return try awaitBarrier(script: bytes)
    }

    /// The largest script written without a watchdog: the pipe (64 KiB on Linux) is empty
    /// when a script is written, since the plugin answered the last one's barrier.
    static let unwatchedScriptBytes = 32 << 10

    /// How long a script's write may block: ``timeout``, or less when the run's hard stop
    /// comes first (`byDeadline`).
    private var writeLimit: (seconds: Double, byDeadline: Bool) {
        let left = max(0, (deadline.hardStop ?? .distantFuture).timeIntervalSinceNow)
        return left < timeout ? (left, true) : (timeout, false)
    }

    private func watchWrite(_ seconds: Double) -> Watchdog {
        Watchdog(after: .milliseconds(Int64(seconds * 1000))) { [transport] in transport.terminate() }
    }

    private func awaitBarrier(script: [UInt8]) throws(DriverError) -> [[UInt8]] {
        let caseEnd = Date().addingTimeInterval(timeout)
        let hardStop = deadline.hardStop ?? .distantFuture
        signal.lock()
        while true {
            let (done, failure, ended, count) = inbox.withLock { s in
                (s.barrierSeen, s.failure, s.closed ? Self.ended(s) : nil, s.frames.count)
            }
            // A failure seen after the barrier's answer belongs to the next script (the
            // reader ignores everything after a failure, the barrier's answer included).
            if done { break }
            if let failure {
                signal.unlock()
                throw fail(failure)
            }
            if let ended {
                signal.unlock()
                throw fail(ended)
            }
            if !signal.wait(until: min(caseEnd, hardStop)), Date() >= min(caseEnd, hardStop) {
                // From now on the reader keeps nothing (and stops nothing): the figures are these.
                let exited = transport.exitStatus
                let error: DriverError =
                    hardStop < caseEnd
                    ? .timeUp(received: count, exited: exited)
                    : .hung(received: count, seconds: timeout, exited: exited)
                let held = inbox.withLock { s in
                    defer { s.frames = [] }
                    s.failure = error
                    s.running = false
                    return s.frames
                }
                signal.unlock()
                throw fail(Self.unknownAnswer(in: held, script: script) ?? error)
            }
        }
        signal.unlock()
        return inbox.withLock { s in
            let frames = s.frames
            s.frames = []
            return frames
        }
    }

    /// The plugin's output ended: before it wrote anything (it did not start), or in the run.
    private static func ended(_ s: Inbox) -> DriverError {
        guard s.framesEver == 0 else { return .closed(s.status, leftover: s.leftover) }
        let how = s.status.map { "it \($0)" } ?? "it closed its output"
        return .notStarted("\(how) before writing anything")
    }

    /// Records `error` for every later script, stops the plugin (with whatever it
    /// forked) and returns the error with the plugin's last stderr lines.
    private func fail(_ error: DriverError) -> DriverError {
        inbox.withLock { s in
            s.failure = error
            s.running = false
            s.frames = []
        }
        transport.close(grace: .zero)
        return error.with(stderr: stderrTail.lines)
    }

    /// Ends the plugin's input and reaps it.
    @discardableResult
    public func close() -> ExitStatus { transport.close(grace: .seconds(2)) }
}
