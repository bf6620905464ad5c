import Dispatch
import HostProtocol
import Synchronization

/// A JSON-RPC 2.0 connection to a plugin, over any ``PluginTransport``.
///
/// Calls are registered in a pending table before they are written, written in
/// call order by one writer, and answered from the reader thread. Over the engine in
/// this process (an ``InlineOutput``) there is no reader thread: answers, events and
/// the tap run on a writing thread, inside `start`, `notify` or `sendRaw`, possibly on
/// behalf of other callers; a caller must not hold, across those calls, a lock that its
/// completions or tap take. When the
/// plugin's output ends (exit, crash, closed stdout) every pending call fails at
/// once with ``HostError/Code/pluginExited`` naming the status or signal. Calls
/// take an optional timeout; a cancelled task stops waiting. Events arrive on
/// ``notifications`` and, synchronously and in order with the responses, on the
/// ``Options/tap``.
///
/// ```swift
/// let connection = try PluginConnection(plugin: .init(executable: path, arguments: ["--events"]))
/// let info = try await connection.call(Initialize.self, .init(events: true))
/// let state = try await connection.call(PluginStateMethod.self, EmptyParams())
/// connection.close()
/// ```
public final class PluginConnection: Sendable {
    /// Connection settings.
    public struct Options: Sendable {
        /// Timeout for calls that do not give one; nil waits forever.
        public var defaultTimeout: Duration?
        /// Sees every message in both directions, in order, on the thread that moves it.
        public var tap: (@Sendable (ConnectionEvent) -> Void)?
        /// Where plugin stderr lines go (default: the host's stderr), for a plugin the
        /// connection starts; a transport given ready-made keeps its own.
        public var stderrLine: (@Sendable (String) -> Void)?
        /// How many events ``notifications`` keeps for a reader that has not taken
        /// them. The default, `.unbounded`, keeps them within ``limits``
        /// (``PeerLimits/maxHeldFrames`` and ``PeerLimits/maxHeldBytes``) and stops a
        /// plugin that passes them as flooding; `.bufferingNewest(0)` keeps none (a
        /// host that reads events from the tap only); a counted policy keeps what it says.
        public var notificationBuffer: AsyncStream<RPCNotification>.Continuation.BufferingPolicy
        /// Sees the size of every frame read, before it is parsed (for a reader above the
        /// connection that keeps what it reads, and bounds it in bytes).
        package var frameBytes: (@Sendable (Int) -> Void)?
        /// What the connection holds from the plugin and how much it may write unasked
        /// (``PeerLimits``); past a bound every pending call fails with
        /// ``HostError/Code/flooding`` and the plugin is stopped.
        public var limits: PeerLimits
        /// The connection's own diagnostics (a protocol error, also on the ``tap``);
        /// default: the host's stderr as `[PluginConnection] LINE`.
        public var log: (@Sendable (String) -> Void)?

        /// Creates options.
        public init(
            defaultTimeout: Duration? = nil, tap: (@Sendable (ConnectionEvent) -> Void)? = nil,
            stderrLine: (@Sendable (String) -> Void)? = nil,
            notificationBuffer: AsyncStream<RPCNotification>.Continuation.BufferingPolicy = .unbounded,
            log: (@Sendable (String) -> Void)? = nil, limits: PeerLimits = .default
        ) {
            self.limits = limits
            self.defaultTimeout = defaultTimeout
            self.tap = tap
            self.stderrLine = stderrLine
            self.notificationBuffer = notificationBuffer
            self.log = log
        }
    }

    /// The transport the connection speaks over.
    public let transport: any PluginTransport
    let pending = PendingTable()
    let writer = Mutex<Int>(0)  // guards writes; holds the last id used
    package let options: Options
    private let notificationContinuation: AsyncStream<EventStream.Held>.Continuation
    /// Signalled once the end of the output has been handled (by the reader thread, or
    /// over an ``InlineOutput`` by the thread that handed it over).
    let readerDone = DispatchSemaphore(value: 0)
    /// The transport, when it hands its output over on the writing thread (no reader thread).
    let inline: (any InlineOutput)?
    /// What the plugin has written since the host last wrote; nil once it has flooded.
    let unprompted: Mutex<OutputMeter?>
    /// Events from the plugin, in order (kept as ``Options/notificationBuffer`` says).
    public let notifications: EventStream

    /// Starts a plugin binary and connects to it.
    public convenience init(plugin: PluginProcess.Options, options: Options = Options()) throws(HostError) {
        try self.init(launcher: PluginLauncher(plugin), options: options)
    }

    /// Starts a plugin (a binary, or the engine in this process) and connects to it;
    /// its stderr lines go to the tap and to ``Options/stderrLine``.
    public convenience init(launcher: PluginLauncher, options: Options = Options()) throws(HostError) {
        let transport = try launcher.start(stderrLine: { [options] line in
            options.tap?(.stderr(line))
            if let sink = options.stderrLine { sink(line) } else { Log.stderr(line) }
        })
        self.init(transport: transport, options: options)
    }

    /// Connects over a transport and starts reading its output.
    public init(transport: any PluginTransport, options: Options = Options()) {
        self.transport = transport
        self.options = options
        inline = transport as? any InlineOutput
        let policy: AsyncStream<EventStream.Held>.Continuation.BufferingPolicy
        var held: PeerLimits?
        switch options.notificationBuffer {
        case .unbounded:
            policy = .unbounded
            held = options.limits
        case .bufferingOldest(let n): policy = .bufferingOldest(n)
        case .bufferingNewest(let n): policy = .bufferingNewest(n)
        @unknown default: policy = .unbounded
        }
        let (stream, continuation) = AsyncStream.makeStream(of: EventStream.Held.self, bufferingPolicy: policy)
        notifications = EventStream(stream: stream, meter: EventStream.Meter(held))
        notificationContinuation = continuation
        unprompted = Mutex(
            OutputMeter(frames: options.limits.maxUnpromptedFrames, bytes: options.limits.maxUnpromptedBytes))
        if let inline {
            readInline(inline)
            return
        }
        TransportReading.frames(
            of: transport, thread: "plugin-stdout",
            onFrame: { [weak self] frame in self?.received(frame) },
            onFramingError: { [weak self] error in self?.protocolError("unreadable frame: \(error.description)") },
            onEnd: { [weak self, options, readerDone] status, leftover in
                if let self {
                    self.readingEnded(status, leftover: leftover)
                } else {
                    if leftover > 0 { options.tap?(.protocolError(Self.cutOff(leftover))) }
                    readerDone.signal()
                }
            })
    }

    /// The plugin process, when the transport is one (for its pid, signals and exit status).
    public var pluginProcess: PluginProcess? { transport as? PluginProcess }

    /// How many calls are waiting for an answer.
    public var pendingCount: Int { pending.count }

    /// Methods of the calls waiting for an answer.
    public var pendingMethods: [String] { pending.pendingMethods }

    /// The calls waiting for an answer: their ids and methods.
    public var pendingCalls: [(id: RequestID, method: String)] { pending.pendingCalls }

    // MARK: - Reading

    /// The output has ended (`leftover`: the bytes of a frame it cut off).
    func readingEnded(_ status: ExitStatus?, leftover: Int) {
        if leftover > 0 { options.tap?(.protocolError(Self.cutOff(leftover))) }
        outputEnded(status)
        readerDone.signal()
    }

    private static func cutOff(_ leftover: Int) -> String {
        "the plugin's output ended in the middle of a frame (\(leftover) bytes)"
    }

    func received(_ frame: ArraySlice<UInt8>) {
        switch unprompted.withLock({ Bound.count(frame.count, in: &$0) }) {
        case .stopped: return  // flooded already: the rest is not read
        case .passed(let figures):
            flooded("\(figures) written without a request from the host")
            return
        case .within: break
        }
        options.frameBytes?(frame.count)
        switch Envelope.parse(frame) {
        case .single(.response(let response)):
            deliver(response)
        case .single(.notification(let n)):
            options.tap?(.receivedNotification(n))
            switch notificationContinuation.yield(EventStream.Held(notification: n, bytes: frame.count)) {
            case .enqueued:
                if let figures = notifications.meter.add(frame.count) {
                    flooded("\(figures) of events not taken from `notifications`")
                }
            case .dropped, .terminated: break
            @unknown default: break
            }
        case .single(.invalid(let id, let error)) where error.code != .parseError:
            // An error response whose error object is malformed, or a stray object.
            protocolError("not a valid JSON-RPC message (id \(id)): \(error.message)")
        case .batch(let messages):
            options.tap?(.receivedOther((try? JSONParser.parse(frame)) ?? .null))
            for case .response(let r) in messages { deliver(r, tapped: false) }
        case .single(.request(let r)):
            protocolError("the plugin sent a request (\(r.method)); hosts do not serve requests")
        case .single(.invalid(_, let error)):
            protocolError("unreadable output: \(error.message)")
        }
    }

    private func deliver(_ response: Response, tapped: Bool = true) {
        if tapped { options.tap?(.receivedResponse(response)) }
        let outcome: Result<JSONValue, HostError> = response.outcome.mapError(HostError.init)
        if !pending.complete(response.id, with: outcome) {
            options.tap?(.protocolError("response for id \(response.id), which no call is waiting for"))
        }
    }

    /// Garbage on stdout: the connection cannot be trusted any more. Every pending
    /// call fails with the protocol error and the plugin is stopped.
    func protocolError(_ detail: String) {
        options.tap?(.protocolError(detail))
        if let log = options.log {
            log("protocol error: \(detail)")
        } else {
            Log.stderr("[PluginConnection] protocol error: \(detail)")
        }
        pending.failAll(.protocolError(detail))
        transport.terminate()
    }

    /// Where a frame stands against the unprompted bound.
    private enum Bound {
        /// Within the bound.
        case within
        /// Past it, with the figures.
        case passed(String)
        /// The plugin flooded already: nothing more is read.
        case stopped

        /// Counts a frame of `bytes` in `meter` (nil once the plugin has flooded).
        static func count(_ bytes: Int, in meter: inout OutputMeter?) -> Bound {
            guard meter != nil else { return .stopped }
            return meter!.add(bytes: bytes).map(Bound.passed) ?? .within
        }
    }

    /// For a reader above the connection that holds what it reads (a timeline) and has
    /// passed its bound: the plugin is stopped as flooding, as if the connection had
    /// held it (`figures` says what and how much).
    package func stop(flooding figures: String) { flooded(figures) }

    /// More output than the host holds: every pending call fails with
    /// ``HostError/Code/flooding`` and the plugin (with whatever it forked) is stopped;
    /// nothing more it writes is read.
    private func flooded(_ figures: String) {
        unprompted.withLock { $0 = nil }
        let error = HostError.flooding(figures)
        options.tap?(.protocolError(error.description))
        if let log = options.log {
            log(error.description)
        } else {
            Log.stderr("[PluginConnection] \(error.description)")
        }
        pending.failAll(error)
        transport.terminate()
    }

    private func outputEnded(_ status: ExitStatus?) {
        options.tap?(.closed(status))
        pending.failAll(.pluginExited(status))
        notificationContinuation.finish()
    }

    // MARK: - Closing

    /// Closes the plugin's input, waits for it to end (then SIGTERM, SIGKILL for a
    /// process) and reaps it. Pending calls fail. Returns how the plugin ended.
    ///
    /// Called from inside a completion, the tap or an event handler of a connection over
    /// an ``InlineOutput``, the end is handed over only after that callback returns: the
    /// wait for it gives up after 7 s (as it does for a reader thread that does not end).
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus {
        let status = transport.close(grace: grace)
        // The output ends with the plugin, unless something it started elsewhere holds it:
        // then the reader is stopped (``PluginTransport/terminate()`` ends its wait).
        var ended = readerDone.wait(timeout: .now() + .seconds(2)) == .success
        if !ended {
            transport.terminate()
            ended = readerDone.wait(timeout: .now() + .seconds(5)) == .success
        }
        if ended { readerDone.signal() }  // let later closes through
        pending.failAll(.closed)
        return status
    }

    /// Call timeouts still holding a timer (answered or failed calls release theirs at once).
    static var liveTimeouts: Int { CallTimer.live }

    deinit {
        if transport.exitStatus == nil { transport.close(grace: .milliseconds(200)) }
    }
}
