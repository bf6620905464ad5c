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
    /// The end was taken by ``takeAvailable()``.
    private var endTaken = false

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

    /// What has been written and not taken, without waiting, and the end the first
    /// time it is seen after the last bytes (for an `InlineRelay`).
    func takeAvailable() -> (bytes: [UInt8], end: ExitStatus?) {
        condition.lock()
        defer { condition.unlock() }
        var taken: [UInt8] = []
        if offset == 0 {
            swap(&taken, &bytes)
        } else {
            taken = Array(bytes[offset...])
            bytes.removeAll(keepingCapacity: true)
        }
        offset = 0
        guard let ended, !endTaken else { return (taken, nil) }
        endTaken = true
        return (taken, ended)
    }

    /// Whether ``takeAvailable()`` would give anything.
    var hasUntaken: Bool {
        condition.lock()
        defer { condition.unlock() }
        return offset < bytes.count || (ended != nil && !endTaken)
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
