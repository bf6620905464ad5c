import HostProtocol

/// A plugin connection driven by its caller: no reader thread. A call writes its
/// request and reads the plugin's output itself until its answer arrives, so a
/// round trip over a process costs the two processes' wake-ups and nothing more.
/// Events read on the way are kept for ``takeEvents()``.
///
/// For single-threaded drivers: benchmarks, scripts, pipelined runners. It is not
/// thread-safe; use ``PluginConnection`` for concurrent and `async` callers.
///
/// Every call waits at most ``timeout`` (30 s by default) for its answer; a plugin that
/// does not answer in time is stopped and the call fails with
/// ``HostError/Code/timedOut``. Events and early responses are held within
/// ``limits``; past them the plugin is stopped as flooding.
///
/// ```swift
/// let c = try DirectConnection(plugin: .init(executable: path))
/// let state = try c.call(method: "plugin/state", params: nil)
/// c.close()
/// ```
public final class DirectConnection {
    /// The transport the connection speaks over.
    public let transport: any PluginTransport
    private let reader: FrameReader
    private var nextID = 0
    private var out: [UInt8] = []
    private var events: [RPCNotification] = []
    /// The bytes of the frames ``events`` holds.
    private var eventBytes = 0
    /// Responses that arrived while waiting for another one, with their frames' sizes.
    private var early: [RequestID: (response: Response, bytes: Int)] = [:]
    /// What ``events`` and ``early`` hold.
    private var held: OutputMeter
    /// How long a call waits for its answer before the plugin is stopped; nil waits
    /// for ever. Default 30 s.
    public var timeout: Duration? = DirectConnection.defaultTimeout
    /// ``timeout`` unless one is set: 30 s.
    public static let defaultTimeout: Duration = .seconds(30)
    /// What the connection holds for its caller (events and early responses).
    public let limits: PeerLimits

    /// Starts a plugin binary; its stderr lines go to `stderrLine`.
    public convenience init(
        plugin: PluginProcess.Options, stderrLine: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HostError) {
        try self.init(launcher: PluginLauncher(plugin), stderrLine: stderrLine)
    }

    /// Starts a plugin (a binary, or the engine in this process); its stderr lines go to `stderrLine`.
    public convenience init(
        launcher: PluginLauncher, stderrLine: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HostError) {
        self.init(transport: try launcher.start(stderrLine: stderrLine))
    }

    /// Connects over a transport.
    public init(transport: any PluginTransport, limits: PeerLimits = .default) {
        self.transport = transport
        self.limits = limits
        held = OutputMeter(frames: limits.maxHeldFrames, bytes: limits.maxHeldBytes)
        reader = FrameReader(transport)
    }

    deinit {
        if transport.exitStatus == nil { transport.close(grace: .milliseconds(200)) }
    }

    /// The plugin's process id, when the transport is a process.
    public var pid: Int32? { (transport as? PluginProcess)?.pid }

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
        if transport.framing == .ndjson {
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
        defer { out.removeAll(keepingCapacity: true) }
        try transport.send(out)
    }

    // MARK: - Reading

    /// The next frame's bytes from the plugin, blocking.
    public func nextFrame() throws(HostError) -> ArraySlice<UInt8> {
        let frame: ArraySlice<UInt8>?
        do {
            frame = try reader.next()
        } catch {
            throw .protocolError("unreadable frame: \(error.description)")
        }
        guard let frame else { throw .pluginExited(transport.waitForExit(timeout: .milliseconds(100))) }
        return frame
    }

    /// A frame already read and decoded, without blocking; nil when none is.
    public func bufferedFrame() throws(HostError) -> ArraySlice<UInt8>? {
        do {
            return try reader.buffered()
        } catch {
            throw .protocolError("unreadable frame: \(error.description)")
        }
    }

    /// Reads until the response to `id`, waiting at most ``timeout``; keeps events
    /// and other responses (within ``limits``).
    public func response(to id: RequestID, method: String = "a call") throws(HostError) -> Response {
        try withDeadline(timeout, waitingFor: method) { () throws(HostError) -> Response in
            try readResponse(to: id, method: method)
        }
    }

    /// ``response(to:method:)`` without a deadline of its own.
    private func readResponse(to id: RequestID, method: String) throws(HostError) -> Response {
        if !early.isEmpty, let r = early.removeValue(forKey: id) {
            held.remove(bytes: r.bytes)
            return r.response
        }
        while true {
            let frame = try nextFrame()
            switch Envelope.parse(frame) {
            case .single(.response(let r)):
                if r.id == id { return r }
                early[r.id] = (r, frame.count)
            case .single(.notification(let n)):
                events.append(n)
                eventBytes += frame.count
            default:
                throw HostError.protocolError(
                    "unexpected frame: \(TerminalText.oneLine(String(decoding: frame.prefix(200), as: UTF8.self)))")
            }
            if let over = held.add(bytes: frame.count) {
                transport.terminate()
                throw HostError.flooding("\(over) of events and responses held while waiting for \(method)")
            }
        }
    }

    /// Runs `body` (reads from the plugin) with a deadline: when `timeout` passes first,
    /// the plugin is stopped (which ends a blocked read) and the wait fails with
    /// ``HostError/Code/timedOut`` naming `what`. nil runs `body` with no deadline.
    public func withDeadline<T>(
        _ timeout: Duration?, waitingFor what: String, _ body: () throws(HostError) -> T
    ) throws(HostError) -> T {
        guard let timeout else { return try body() }
        let watchdog = Watchdog(after: timeout) { [transport] in transport.terminate() }
        let result: Result<T, HostError>
        do throws(HostError) {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }
        if watchdog.finish() { throw .timedOut(method: what, seconds: timeout.seconds) }
        return try result.get()
    }

    /// A blocking call: writes the request (and anything queued) and reads its answer,
    /// within ``timeout`` for both (a plugin that stops reading is stopped too).
    public func call(method: String, params: JSONValue?) throws(HostError) -> JSONValue {
        let id = send(method: method, params: params)
        let reply = try withDeadline(timeout, waitingFor: method) { () throws(HostError) -> Response in
            try flush()
            return try readResponse(to: id, method: method)
        }
        return try reply.outcome.mapError(HostError.init).get()
    }

    /// A typed blocking call.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params) throws(HostError) -> M.Result {
        try PluginConnection.decode(M.self, try call(method: M.name, params: PluginConnection.encode(params)))
    }

    /// Events read so far (and forgets them).
    public func takeEvents() -> [RPCNotification] {
        defer {
            held.remove(frames: events.count, bytes: eventBytes)
            events.removeAll()
            eventBytes = 0
        }
        return events
    }

    /// Closes the plugin's input, waits for it to end (then SIGTERM, SIGKILL for a
    /// process) and reaps it.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus { transport.close(grace: grace) }
}
