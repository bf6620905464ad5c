import Foundation
import HostProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plugin connection driven by its caller: no reader thread. A call writes its
/// request and reads the plugin's stdout itself until its answer arrives, so a
/// round trip costs the two processes' wake-ups and nothing more. Events read on
/// the way are kept for ``takeEvents()``.
///
/// For single-threaded drivers: benchmarks, scripts, pipelined runners. It is not
/// thread-safe; use ``PluginConnection`` for concurrent and `async` callers.
///
/// ```swift
/// let c = try DirectConnection(plugin: .init(executable: path))
/// let state = try c.call(method: "plugin/state", params: nil)
/// c.close()
/// ```
public final class DirectConnection {
    private let child: ChildProcess
    private var decoder: FrameDecoder
    private let framing: Framing
    private var nextID = 0
    private var buffer: UnsafeMutableRawBufferPointer
    private var out: [UInt8] = []
    private var events: [RPCNotification] = []
    /// Responses that arrived while waiting for another one.
    private var early: [RequestID: Response] = [:]

    /// Starts the plugin; its stderr is drained by a thread into `stderrLine`.
    public init(plugin: PluginProcess.Options, stderrLine: @escaping @Sendable (String) -> Void = { _ in }) throws(HostError) {
        guard FileManager.default.isExecutableFile(atPath: plugin.executable) else {
            throw HostError.launchFailed("no executable plugin at \(plugin.executable)")
        }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in plugin.environment { environment[k] = v }
        do {
            child = try ChildProcess(path: plugin.executable, arguments: plugin.arguments, environment: environment)
        } catch {
            throw HostError.launchFailed(error.description)
        }
        framing = plugin.framing
        decoder = FrameDecoder(mode: plugin.framing == .ndjson ? .ndjson : .lsp, maxFrameBytes: plugin.maxFrameBytes)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        let fd = child.stderrFD
        let prefix = plugin.stderrPrefix
        let drain = Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &chunk, chunk.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: chunk[0..<n])
                while let nl = pending.firstIndex(of: 0x0A) {
                    stderrLine(prefix + String(decoding: pending[..<nl], as: UTF8.self))
                    pending.removeSubrange(...nl)
                }
            }
            Glibc.close(fd)
        }
        drain.start()
    }

    deinit {
        if child.exitStatus == nil {
            child.closeStdin()
            child.kill(SIGKILL)
        }
        buffer.deallocate()
    }

    /// The plugin's process id.
    public var pid: Int32 { child.pid }

    // MARK: - Writing

    /// Queues a request (written by ``flush()`` or the next call); returns its id.
    @discardableResult
    public func send(method: String, params: JSONValue?) -> RequestID {
        nextID += 1
        let id = RequestID.int(nextID)
        appendFrame { MessageWriter.appendRequest(id: id, method: method, params: params, to: &$0) }
        return id
    }

    /// Queues raw, already framed bytes.
    public func sendRaw(_ bytes: [UInt8]) {
        out.append(contentsOf: bytes)
    }

    private func appendFrame(_ fill: (inout [UInt8]) -> Void) {
        if framing == .ndjson {
            fill(&out)
            out.append(0x0A)
        } else {
            var body: [UInt8] = []
            fill(&body)
            FrameEncoder.append(body, framing: .lsp, to: &out)
        }
    }

    /// Writes everything queued.
    public func flush() throws(HostError) {
        guard !out.isEmpty else { return }
        let failure = out.withUnsafeBytes { child.writeStdin($0) }
        out.removeAll(keepingCapacity: true)
        if let failure {
            if let status = child.waitForExit(timeout: .milliseconds(100)) { throw HostError.pluginExited(status) }
            throw HostError.ioFailure("cannot write to the plugin: \(String(cString: strerror(failure)))")
        }
    }

    // MARK: - Reading

    /// The next frame's bytes from the plugin, blocking.
    public func nextFrame() throws(HostError) -> ArraySlice<UInt8> {
        while true {
            do {
                if let frame = try decoder.nextFrame() { return frame }
            } catch {
                throw HostError.protocolError("unreadable frame: \(error.description)")
            }
            let n = read(child.stdoutFD, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { throw HostError.pluginExited(child.waitForExit(timeout: .milliseconds(100))) }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// A frame already read and decoded, without blocking; nil when none is.
    public func bufferedFrame() throws(HostError) -> ArraySlice<UInt8>? {
        do {
            return try decoder.nextFrame()
        } catch {
            throw HostError.protocolError("unreadable frame: \(error.description)")
        }
    }

    /// Reads until the response to `id`; keeps events and other responses.
    public func response(to id: RequestID) throws(HostError) -> Response {
        if !early.isEmpty, let r = early.removeValue(forKey: id) { return r }
        while true {
            let frame = try nextFrame()
            switch Envelope.parse(frame) {
            case .single(.response(let r)):
                if r.id == id { return r }
                early[r.id] = r
            case .single(.notification(let n)):
                events.append(n)
            default:
                throw HostError.protocolError("unexpected frame: \(String(decoding: frame.prefix(200), as: UTF8.self))")
            }
        }
    }

    /// A blocking call: writes the request (and anything queued) and reads its answer.
    public func call(method: String, params: JSONValue?) throws(HostError) -> JSONValue {
        let id = send(method: method, params: params)
        try flush()
        return try response(to: id).outcome.mapError(HostError.init).get()
    }

    /// A typed blocking call.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params) throws(HostError) -> M.Result {
        try PluginConnection.decode(M.self, try call(method: M.name, params: PluginConnection.encode(params)))
    }

    /// Events read so far (and forgets them).
    public func takeEvents() -> [RPCNotification] {
        defer { events.removeAll() }
        return events
    }

    /// Closes stdin, waits for the plugin to exit (then SIGTERM, SIGKILL), reaps it.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus {
        child.closeStdin()
        let ns = Int(grace.components.seconds * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000)
        if let s = child.waitForExit(timeout: .nanoseconds(ns)) { return s }
        child.kill(SIGTERM)
        if let s = child.waitForExit(timeout: .milliseconds(500)) { return s }
        child.kill(SIGKILL)
        return child.waitForExit(timeout: .seconds(60)) ?? .signaled(SIGKILL)
    }
}
