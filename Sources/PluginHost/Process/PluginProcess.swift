import Dispatch
import Foundation
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running plugin binary: raw frames in and out.
///
/// One thread reads stdout with blocking reads and decodes frames; another
/// forwards stderr line by line to a log handler with a prefix; a third reaps
/// the child. ``send(_:)`` writes framed bytes in call order. When the plugin's
/// stdout ends, ``Handlers/onClose`` is called once, with the exit status when
/// the process has exited within 100 ms.
///
/// ```swift
/// let plugin = try PluginProcess(options: .init(executable: path), handlers: .init(
///     onFrame: { frame in print(String(decoding: frame, as: UTF8.self)) }))
/// try plugin.send(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"plugin/state\"}".utf8))
/// plugin.close()
/// ```
public final class PluginProcess: Sendable {
    /// What to start.
    public struct Options: Sendable {
        /// Path to the plugin executable.
        public var executable: String
        /// Its arguments.
        public var arguments: [String]
        /// Extra environment variables (added to the host's own environment).
        public var environment: [String: String]
        /// The framing used both ways (auto is not allowed on the host side).
        public var framing: Framing
        /// Largest frame accepted from the plugin.
        public var maxFrameBytes: Int
        /// Prefix for forwarded stderr lines.
        public var stderrPrefix: String

        /// Creates options.
        public init(executable: String, arguments: [String] = [], environment: [String: String] = [:], framing: Framing = .ndjson, maxFrameBytes: Int = 16 << 20, stderrPrefix: String = "[plugin] ") {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.framing = framing
            self.maxFrameBytes = maxFrameBytes
            self.stderrPrefix = stderrPrefix
        }
    }

    /// Callbacks, all called on the process's own threads, never concurrently with
    /// themselves: frames in order on the stdout thread.
    public struct Handlers: Sendable {
        /// Each complete frame from stdout, in order.
        public var onFrame: @Sendable (ArraySlice<UInt8>) -> Void
        /// A stdout framing error (the stream goes on).
        public var onFramingError: @Sendable (FramingError) -> Void
        /// Each stderr line, prefixed.
        public var onStderrLine: @Sendable (String) -> Void
        /// Once, when stdout has ended: the exit status if known within 100 ms.
        public var onClose: @Sendable (ExitStatus?) -> Void
        /// Stdout ended in the middle of a frame (this many bytes of it), just before `onClose`.
        public var onTruncatedOutput: @Sendable (Int) -> Void

        /// Creates handlers; stderr goes to the host's stderr by default.
        public init(onFrame: @escaping @Sendable (ArraySlice<UInt8>) -> Void, onFramingError: @escaping @Sendable (FramingError) -> Void = { _ in }, onStderrLine: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }, onClose: @escaping @Sendable (ExitStatus?) -> Void = { _ in }, onTruncatedOutput: @escaping @Sendable (Int) -> Void = { _ in }) {
            self.onFrame = onFrame
            self.onTruncatedOutput = onTruncatedOutput
            self.onFramingError = onFramingError
            self.onStderrLine = onStderrLine
            self.onClose = onClose
        }
    }

    /// Why a plugin could not be started or written to.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        package init(description: String) { self.description = description }
    }

    public let options: Options
    private let child: ChildProcess
    private let handlers: Handlers
    private let closed = DispatchSemaphore(value: 0)

    /// The plugin's process id.
    public var pid: Int32 { child.pid }

    /// Starts the plugin. Fails clearly when the executable is missing or not executable.
    public init(options: Options, handlers: Handlers) throws(StartError) {
        guard FileManager.default.fileExists(atPath: options.executable) else {
            throw StartError(description: "plugin binary not found at \(options.executable)")
        }
        guard FileManager.default.isExecutableFile(atPath: options.executable) else {
            throw StartError(description: "plugin binary at \(options.executable) is not executable")
        }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in options.environment { environment[k] = v }
        do {
            child = try ChildProcess(path: options.executable, arguments: options.arguments, environment: environment)
        } catch {
            throw StartError(description: error.description)
        }
        self.options = options
        self.handlers = handlers
        let stdoutThread = Thread { [self] in readStdout() }
        stdoutThread.name = "plugin-stdout"
        stdoutThread.start()
        let stderrThread = Thread { [self] in readStderr() }
        stderrThread.name = "plugin-stderr"
        stderrThread.start()
    }

    /// Writes bytes to the plugin's stdin (already framed).
    public func sendRaw(_ bytes: [UInt8]) throws(StartError) {
        let failure = bytes.withUnsafeBytes { child.writeStdin($0) }
        if let failure {
            throw StartError(description: "cannot write to the plugin: \(String(cString: strerror(failure)))")
        }
    }

    /// Frames a message body and writes it.
    public func send(_ body: [UInt8]) throws(StartError) {
        try sendRaw(FrameEncoder.frame(body, framing: options.framing))
    }

    /// The exit status, nil while it runs.
    public var exitStatus: ExitStatus? { child.exitStatus }

    /// Waits for the process to exit, up to `timeout`.
    public func waitForExit(timeout: Duration) -> ExitStatus? {
        child.waitForExit(timeout: .nanoseconds(Int(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)))
    }

    /// Closes the plugin's stdin (it exits on EOF).
    public func closeStdin() { child.closeStdin() }

    /// Sends a signal to the plugin.
    public func kill(_ signal: Int32 = SIGKILL) { child.kill(signal) }

    /// Stops the plugin and reaps it: closes stdin, waits up to `grace` for it to
    /// exit, then SIGTERM, then SIGKILL. Returns how it ended.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus {
        child.closeStdin()
        if let status = waitForExit(timeout: grace) { return status }
        child.kill(SIGTERM)
        if let status = waitForExit(timeout: .milliseconds(500)) { return status }
        child.kill(SIGKILL)
        return child.waitForExit(timeout: .seconds(60)) ?? .signaled(SIGKILL)
    }

    /// Waits until stdout has ended and ``Handlers/onClose`` has run.
    public func waitUntilClosed(timeout: Duration) -> Bool {
        let ns = Int(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        guard closed.wait(timeout: .now() + .nanoseconds(ns)) == .success else { return false }
        closed.signal()
        return true
    }

    private func readStdout() {
        var decoder = FrameDecoder(mode: options.framing == .ndjson ? .ndjson : .lsp, maxFrameBytes: options.maxFrameBytes)
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = read(child.stdoutFD, buffer.baseAddress, capacity)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            while true {
                do {
                    guard let frame = try decoder.nextFrame() else { break }
                    handlers.onFrame(frame)
                } catch {
                    handlers.onFramingError(error)
                }
            }
        }
        // The plugin ends every frame; bytes left at EOF are a frame cut off by its exit.
        let leftover = decoder.bufferedByteCount
        if leftover > 0 { handlers.onTruncatedOutput(leftover) }
        Glibc.close(child.stdoutFD)
        handlers.onClose(child.waitForExit(timeout: .milliseconds(100)))
        closed.signal()
    }

    private func readStderr() {
        var pending: [UInt8] = []
        let capacity = 1 << 14
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        func flushLines(final: Bool) {
            while let nl = pending.firstIndex(of: 0x0A) {
                handlers.onStderrLine(options.stderrPrefix + String(decoding: pending[..<nl], as: UTF8.self))
                pending.removeSubrange(...nl)
            }
            if pending.count > 8192 || (final && !pending.isEmpty) {
                handlers.onStderrLine(options.stderrPrefix + String(decoding: pending, as: UTF8.self))
                pending.removeAll()
            }
        }
        while true {
            let n = read(child.stderrFD, buffer.baseAddress, capacity)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            flushLines(final: false)
        }
        flushLines(final: true)
        Glibc.close(child.stderrFD)
    }

    deinit {
        if child.exitStatus == nil {
            child.closeStdin()
            child.kill(SIGKILL)
        }
    }
}
