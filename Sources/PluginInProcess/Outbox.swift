import Foundation
import PluginHost

/// What the in-process engine has written and the host has not read yet, and how
/// it ended: the in-process stand-in for the plugin's stdout pipe.
final class Outbox: @unchecked Sendable {
    // @unchecked: every stored property is touched only with `condition` locked.
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var offset = 0
    private var ended: ExitStatus?

    /// Adds output; fails once the output has ended.
    func append(_ more: [UInt8]) throws(HostError) {
        condition.lock()
        defer { condition.unlock() }
        if let ended { throw .pluginExited(ended) }
        bytes.append(contentsOf: more)
        condition.broadcast()
    }

    /// Ends the output with the engine's exit status (the first end wins).
    func end(_ status: ExitStatus) {
        condition.lock()
        if ended == nil { ended = status }
        condition.broadcast()
        condition.unlock()
    }

    /// How the output ended, nil while it goes on.
    var status: ExitStatus? {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Waits for output and copies up to `buffer.count` bytes of it; 0 once it has
    /// ended and everything has been taken.
    func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while offset == bytes.count, ended == nil { condition.wait() }
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: n)
        }
        offset += n
        if offset == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.count <= 1 << 20)
            offset = 0
        }
        return n
    }

    /// Waits up to `timeout` for the output to end; its status, or nil.
    func waitForEnd(timeout: Duration) -> ExitStatus? {
        let seconds = timeout.seconds
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while ended == nil {
            if !condition.wait(until: deadline) { break }
        }
        return ended
    }
}

/// The real clock's wake-ups: a timer source armed for the engine's next due time.
final class WakeUpTimer: Sendable {
    private let queue = DispatchQueue(label: "in-process-plugin.clock")
    // Thread-safe: the source is configured before `resume`, then only scheduled and cancelled.
    private nonisolated(unsafe) let source: DispatchSourceTimer

    init() { source = DispatchSource.makeTimerSource(queue: queue) }

    /// Starts the timer, disarmed; `handler` runs on the timer's queue when it fires.
    func start(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .distantFuture)
        source.resume()
    }

    /// Fires after `delay` nanoseconds; nil disarms it.
    func arm(afterNanoseconds delay: UInt64?) {
        guard let delay else {
            source.schedule(deadline: .distantFuture)
            return
        }
        source.schedule(deadline: .now() + .nanoseconds(Int(min(delay, UInt64(Int.max)))), leeway: .microseconds(100))
    }

    func stop() { source.cancel() }
}
