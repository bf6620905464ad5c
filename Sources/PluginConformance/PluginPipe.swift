import Dispatch
import Foundation
import PluginHost
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plugin process on raw pipes, for the conformance suite: bytes in exactly as
/// given, stdout kept as bytes (so that framing itself can be checked), stderr
/// kept for failure reports.
///
/// One thread blocks in `read(2)` on stdout, another on stderr; a waiter blocks on
/// a semaphore the stdout thread signals. No polling.
final class PluginPipe: Sendable {
    private struct State {
        var stdout: [UInt8] = []
        var stdoutClosed = false
        var stderrTail: [UInt8] = []
        var killedByWatchdog = false
    }

    private let child: ChildProcess
    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)
    private static let stderrLimit = 4096

    /// Starts `executable` with `arguments`; `environment` is added to the host's own.
    init(executable: String, arguments: [String], environment: [String: String]) throws(PluginProcess.StartError) {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw PluginProcess.StartError(description: "no executable plugin at \(executable)")
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        do {
            child = try ChildProcess(path: executable, arguments: arguments, environment: env)
        } catch {
            throw PluginProcess.StartError(description: error.description)
        }
        let out = Thread { [self] in readStdout() }
        out.name = "conformance-stdout"
        out.start()
        let err = Thread { [self] in readStderr() }
        err.name = "conformance-stderr"
        err.start()
    }

    /// Writes bytes to stdin; false when the plugin no longer reads (EPIPE).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { child.writeStdin($0) } == nil
    }

    /// Writes bytes to stdin, but kills the plugin if a large write is still blocked
    /// at `deadline` (a plugin that stops reading must not hang the suite).
    @discardableResult
    func write(_ bytes: [UInt8], deadline: DispatchTime) -> Bool {
        guard bytes.count > 16_384 else { return write(bytes) }
        let watchdog = DispatchWorkItem { [self] in
            state.withLock { $0.killedByWatchdog = true }
            child.kill(SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
        let ok = write(bytes)
        watchdog.cancel()
        return ok
    }

    /// Whether a write blocked past its deadline and the plugin was killed for it.
    var killedByWatchdog: Bool { state.withLock { $0.killedByWatchdog } }

    /// Closes stdin (end of input).
    func closeStdin() { child.closeStdin() }

    /// Waits until stdout holds more than `count` bytes or has closed, up to
    /// `deadline`. Returns the bytes after the first `count` and whether stdout
    /// has closed; nil on timeout.
    func read(after count: Int, deadline: DispatchTime) -> (bytes: [UInt8], closed: Bool)? {
        while true {
            let ready: (bytes: [UInt8], closed: Bool)? = state.withLock { s in
                s.stdout.count > count || s.stdoutClosed ? (Array(s.stdout[min(count, s.stdout.count)...]), s.stdoutClosed) : nil
            }
            if let ready { return ready }
            if arrived.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Everything written to stdout so far.
    var stdout: [UInt8] { state.withLock { $0.stdout } }

    /// The last few KiB of stderr, for reports.
    var stderrTail: String { String(decoding: state.withLock { $0.stderrTail }, as: UTF8.self) }

    /// Waits for the process to exit, up to `timeout`.
    func waitForExit(timeout: DispatchTimeInterval) -> ExitStatus? { child.waitForExit(timeout: timeout) }

    /// Ends the plugin: closes stdin, waits up to `grace`, then SIGKILL; reaps it.
    @discardableResult
    func stop(grace: DispatchTimeInterval = .seconds(2)) -> ExitStatus {
        child.closeStdin()
        if let status = child.waitForExit(timeout: grace) { return status }
        child.kill(SIGKILL)
        return child.waitForExit(timeout: .seconds(30)) ?? .signaled(SIGKILL)
    }

    private func readStdout() {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(child.stdoutFD, buffer.baseAddress, capacity)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            state.withLock { $0.stdout.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
            arrived.signal()
        }
        Glibc.close(child.stdoutFD)
        state.withLock { $0.stdoutClosed = true }
        arrived.signal()
    }

    private func readStderr() {
        let capacity = 1 << 14
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(child.stderrFD, buffer.baseAddress, capacity)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            state.withLock { s in
                s.stderrTail.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if s.stderrTail.count > Self.stderrLimit { s.stderrTail.removeFirst(s.stderrTail.count - Self.stderrLimit) }
            }
        }
        Glibc.close(child.stderrFD)
    }

    deinit {
        if child.exitStatus == nil {
            child.closeStdin()
            child.kill(SIGKILL)
        }
    }
}
