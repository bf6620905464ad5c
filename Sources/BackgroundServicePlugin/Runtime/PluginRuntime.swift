import Dispatch
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a ``PluginEngine`` on stdin and stdout.
///
/// - One dedicated thread does blocking `read(2)`s on stdin and hands each chunk
///   to the engine.
/// - The engine is the plugin's one serial owner: it lives in a `Mutex`, and the
///   reader thread and (real clock only) the timer queue enter it in turn.
/// - Output is written by whichever of them produced it, still under the lock,
///   so frames leave in causal order, several per `write(2)` when ready together.
///   A host that stops reading makes the plugin block, never drop or buffer
///   without bound.
final class PluginRuntime: Sendable {
    private let engine: Mutex<PluginEngine>
    private let isRealClock: Bool
    private let timerQueue = DispatchQueue(label: "background-service-plugin.clock")
    private nonisolated(unsafe) let timer: DispatchSourceTimer

    init(engine: sending PluginEngine, realClock: Bool) {
        self.isRealClock = realClock
        self.engine = Mutex(engine)
        self.timer = DispatchSource.makeTimerSource(queue: timerQueue)
    }

    /// Starts the reader thread and never returns: the process exits 0 at EOF or
    /// after `shutdown`, once everything produced has been written.
    func run() -> Never {
        if isRealClock {
            timer.setEventHandler { [self] in
                step { $0.wakeUp() }
            }
            timer.schedule(deadline: .distantFuture)
            timer.resume()
        }
        startThread { [self] in readLoop() }
        // The reader thread (or the timer queue) ends the process with exit().
        while true { pause() }
    }

    private func readLoop() -> Never {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        while true {
            let n = read(0, buffer.baseAddress, capacity)
            if n < 0 {
                if errno == EINTR { continue }
                Stderr.log("reading stdin failed: \(String(cString: strerror(errno))); exiting")
                exit(1)
            }
            if n == 0 {
                step { $0.endOfInput() }
                exit(0)
            }
            step { $0.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
        }
    }

    /// Runs `work` on the engine under the lock, writes what it produced, re-arms the
    /// real clock's wake-up, and exits after `shutdown`.
    private func step(_ work: (PluginEngine) -> Void) {
        let shutDown = engine.withLock { engine in
            work(engine)
            if engine.hasOutput { engine.writeOutput { Stdout.writeAll($0) } }
            if isRealClock {
                if let delay = engine.nextWakeupDelay {
                    timer.schedule(
                        deadline: .now() + .nanoseconds(Int(min(delay, UInt64(Int.max)))), leeway: .microseconds(100))
                } else {
                    timer.schedule(deadline: .distantFuture)
                }
            }
            if let status = engine.requestedExitStatus { exit(status) }
            return engine.isShutDown
        }
        if shutDown { exit(0) }
    }
}

/// Starts a detached POSIX thread running `body` (Foundation's `Thread` would
/// initialize Foundation, which the plugin's normal path does without).
func startThread(_ body: @escaping () -> Void) {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
    if rc != 0 {
        Stderr.log("cannot start the stdin reader thread: \(String(cString: strerror(rc)))")
        exit(1)
    }
    pthread_detach(thread)
}
