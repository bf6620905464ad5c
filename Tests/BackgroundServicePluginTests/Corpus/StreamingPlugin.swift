import Foundation
import HostProtocol
import HostTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The plugin binary kept running across many cases: bytes are written as they
/// come, replies are read as frames (in whichever framing the plugin detected) on
/// a reader thread, and the process's memory can be read between cases.
final class StreamingPlugin: @unchecked Sendable {
    // @unchecked: `frames`, `ended` and `stderrText` are guarded by `condition`.
    private let program: SpawnedProgram
    private let condition = NSCondition()
    private var frames: [[UInt8]] = []
    private var ended = false
    private var stderrText = ""

    /// Starts the plugin with `arguments`.
    init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        program = try SpawnedProgram(Binaries.plugin, arguments, environment: Plugin.environment(adding: environment))
        let (out, err) = (program.stdout, program.stderr)
        Thread.detachNewThread { [self] in readFrames(out) }
        Thread.detachNewThread { [self] in readStderr(err) }
    }

    var pid: Int32 { program.pid }

    private func readFrames(_ fd: Int32) {
        var decoder = FrameDecoder(mode: .auto, maxFrameBytes: 64 << 20)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            var got: [[UInt8]] = []
            while let frame = try? decoder.nextFrame() { got.append(Array(frame)) }
            condition.lock()
            frames += got
            condition.broadcast()
            condition.unlock()
        }
        var tail: [[UInt8]] = []
        if let last = try? decoder.finish() { tail.append(Array(last)) }
        condition.lock()
        frames += tail
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    private func readStderr(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            let text = String(decoding: buffer[0..<n], as: UTF8.self)
            condition.lock()
            // Kept bounded: only the last 64 KiB matter to a test.
            stderrText = String((stderrText + text).suffix(1 << 16))
            condition.unlock()
        }
    }

    /// Writes bytes to stdin (blocking while the pipe is full).
    func write(_ bytes: [UInt8]) {
        program.write(bytes)
    }

    /// Writes bytes in `pieces` parts with a pause between them, so that the plugin
    /// sees the frame arrive across several reads.
    func writeSplit(_ bytes: [UInt8], pieces: Int) {
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var i = 0
        while i < bytes.count {
            write(Array(bytes[i..<min(bytes.count, i + size)]))
            i += size
            if i < bytes.count { usleep(2_000) }
        }
    }

    /// Closes stdin (the plugin sees EOF).
    func closeStdin() {
        program.closeStdin()
    }

    /// Waits for frames until one is a response whose id is `id` (a JSON text);
    /// returns every frame before it and that one. Nil on timeout or end of output.
    func frames(through id: String, timeout: Double = 30) -> (before: [[UInt8]], reply: [UInt8])? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var scanned = 0
        while true {
            while scanned < frames.count {
                if StreamingPlugin.responseID(frames[scanned]) == id {
                    let before = Array(frames[0..<scanned])
                    let reply = frames[scanned]
                    frames.removeFirst(scanned + 1)
                    return (before, reply)
                }
                scanned += 1
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits until stdout ends; returns every frame left.
    func remainingFrames(timeout: Double = 30) -> [[UInt8]]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended {
            if !condition.wait(until: deadline) { return nil }
        }
        defer { frames.removeAll() }
        return frames
    }

    /// Waits for the process to exit; its status, or nil (killed) after `timeout`.
    func waitForExit(timeout: Double = 10) -> Int32? {
        guard let end = program.wait(timeout: .milliseconds(Int(timeout * 1000))) else {
            program.kill(SIGKILL)
            program.wait()
            return nil
        }
        return end.signal ?? end.exitCode
    }

    /// What the plugin wrote to stderr so far (the last 64 KiB).
    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return stderrText
    }

    /// Resident and peak resident memory in KiB, from /proc.
    func memory() -> (rss: Int, hwm: Int) {
        ProcStatus.memory(pid: pid)
    }

    /// The id of a response frame as JSON text, nil for anything else.
    static func responseID(_ frame: [UInt8]) -> String? {
        guard let v = try? JSONParser.parse(frame), v["method"] == nil, let id = v["id"] else { return nil }
        return id.description
    }
}

/// Reads `VmRSS` and `VmHWM` from `/proc/PID/status`.
enum ProcStatus {
    static func memory(pid: Int32) -> (rss: Int, hwm: Int) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
            }
            return 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }
}
