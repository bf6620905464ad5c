import Dispatch
import HostProtocol
import Synchronization

/// A JSON-RPC 2.0 connection to a plugin process.
///
/// Calls are registered in a pending table before they are written, written in
/// call order by one writer, and answered from the reader thread. When the
/// plugin's output ends (exit, crash, closed stdout) every pending call fails at
/// once with ``HostError/pluginExited(_:)`` naming the status or signal. Calls
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
        /// Where plugin stderr lines go (default: the host's stderr).
        public var stderrLine: (@Sendable (String) -> Void)?
        /// When set, a call's completion is not run on the reader thread but handed
        /// here with the call's id, to be run by whoever drives the host (a
        /// simulation runs them between host jobs, so a reply never resumes a task
        /// before that task has suspended).
        public var completionHandoff: (@Sendable (RequestID, @escaping @Sendable () -> Void) -> Void)?

        /// Creates options.
        public init(defaultTimeout: Duration? = nil, tap: (@Sendable (ConnectionEvent) -> Void)? = nil, stderrLine: (@Sendable (String) -> Void)? = nil, completionHandoff: (@Sendable (RequestID, @escaping @Sendable () -> Void) -> Void)? = nil) {
            self.defaultTimeout = defaultTimeout
            self.tap = tap
            self.stderrLine = stderrLine
            self.completionHandoff = completionHandoff
        }
    }

    private let process: Mutex<PluginProcess?> = Mutex(nil)
    private let pending = PendingTable()
    private let writer = Mutex<Int>(0)  // guards writes; holds the last id used
    private let options: Options
    private let notificationContinuation: AsyncStream<RPCNotification>.Continuation
    /// Events from the plugin, in order. Unbounded: nothing is lost.
    public let notifications: AsyncStream<RPCNotification>

    /// Starts the plugin and connects to it.
    public init(plugin: PluginProcess.Options, options: Options = Options()) throws(HostError) {
        self.options = options
        (notifications, notificationContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let handlers = PluginProcess.Handlers(
            onFrame: { [weak self] frame in self?.received(frame) },
            onFramingError: { [weak self] error in self?.protocolError("unreadable frame: \(error.description)") },
            onStderrLine: { [options] line in
                options.tap?(.stderr(line))
                if let sink = options.stderrLine { sink(line) } else { Log.stderr(line) }
            },
            onClose: { [weak self] status in self?.outputEnded(status) },
            onTruncatedOutput: { [options] count in
                options.tap?(.protocolError("the plugin's output ended in the middle of a frame (\(count) bytes)"))
            })
        do {
            let p = try PluginProcess(options: plugin, handlers: handlers)
            process.withLock { $0 = p }
        } catch {
            throw HostError.launchFailed(error.description)
        }
    }

    /// The plugin process (for its pid, signals and exit status).
    public var pluginProcess: PluginProcess { process.withLock { $0! } }

    /// How many calls are waiting for an answer.
    public var pendingCount: Int { pending.count }

    /// Methods of the calls waiting for an answer.
    public var pendingMethods: [String] { pending.pendingMethods }

    /// The calls waiting for an answer: their ids and methods.
    public var pendingCalls: [(id: RequestID, method: String)] { pending.pendingCalls }

    // MARK: - Calls

    /// Calls a method with typed params and result.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) async throws(HostError) -> M.Result {
        let raw = try await call(method: M.name, params: PluginConnection.encode(params), timeout: timeout)
        return try PluginConnection.decode(M.self, raw)
    }

    /// Calls a method by name with raw params.
    public func call(method: String, params: JSONValue?, timeout: Duration? = nil) async throws(HostError) -> JSONValue {
        let id = nextID()
        let limit = timeout ?? options.defaultTimeout
        let result: Result<JSONValue, HostError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONValue, HostError>, Never>) in
                start(id: id, method: method, params: params, timeout: limit) { continuation.resume(returning: $0) }
                // Cancelled before the call was registered: onCancel found nothing to abandon.
                if Task.isCancelled { pending.abandon(id, with: .cancelled) }
            }
        } onCancel: {
            pending.abandon(id, with: .cancelled)
        }
        return try result.get()
    }

    /// Calls a method and blocks the calling thread until the answer (never call it
    /// from the connection's own callbacks).
    public func callBlocking(method: String, params: JSONValue?, timeout: Duration? = nil) throws(HostError) -> JSONValue {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<JSONValue, HostError>?>(nil)
        start(id: nextID(), method: method, params: params, timeout: timeout ?? options.defaultTimeout) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Typed blocking call.
    public func callBlocking<M: RPCMethod>(_: M.Type, _ params: M.Params, timeout: Duration? = nil) throws(HostError) -> M.Result {
        try PluginConnection.decode(M.self, try callBlocking(method: M.name, params: PluginConnection.encode(params), timeout: timeout))
    }

    /// Sends a call and returns at once; `completion` runs on the reader thread
    /// (or at once on failure). The building block of every call, and of pipelining.
    public func start(method: String, params: JSONValue?, timeout: Duration? = nil, completion: @escaping @Sendable (Result<JSONValue, HostError>) -> Void) {
        start(id: nextID(), method: method, params: params, timeout: timeout ?? options.defaultTimeout, completion: completion)
    }

    /// Sends a notification (no answer).
    public func notify(method: String, params: JSONValue?) throws(HostError) {
        if let failure = pending.failure { throw failure }
        var body: [UInt8] = []
        MessageWriter.appendNotification(method: method, params: params, to: &body)
        let error: HostError? = writer.withLock { _ in
            options.tap?(.sentNotification(RPCNotification(method: method, params: params)))
            return write(body)
        }
        if let error { throw error }
    }

    private func nextID() -> RequestID {
        .int(writer.withLock { last in
            last += 1
            return last
        })
    }

    private func start(id: RequestID, method: String, params: JSONValue?, timeout: Duration?, completion originalCompletion: @escaping PendingTable.Completion) {
        var completion: PendingTable.Completion = originalCompletion
        if let tap = options.tap {
            completion = { result in
                originalCompletion(result)
                tap(.settled(id))
            }
        }
        if let handoff = options.completionHandoff {
            let run = completion
            completion = { result in handoff(id) { run(result) } }
        }
        // The timeout is a timer source, started once the request is written and
        // cancelled when the call completes. (It was an `asyncAfter`, which keeps every
        // call's closure alive until its deadline even when the answer came long before:
        // a host making 30,000 calls a second with a 60 s timeout held 1.8 million of
        // them. Found by `plugin-host soak`.)
        let slot = timeout.map { _ in TimeoutSlot() }
        if let slot {
            let run = completion
            completion = { result in
                slot.finish()
                run(result)
            }
        }
        if let failure = pending.register(id, method: method, complete: completion) {
            completion(.failure(failure))
            return
        }
        var body: [UInt8] = []
        MessageWriter.appendRequest(id: id, method: method, params: params, to: &body)
        let error: HostError? = writer.withLock { _ in
            options.tap?(.sentRequest(Request(id: id, method: method, params: params)))
            return write(body)
        }
        if let error {
            pending.abandon(id, with: error)
            return
        }
        if let slot, let timeout {
            slot.arm(after: timeout) { [pending] seconds in pending.abandon(id, with: .timedOut(method: method, seconds: seconds)) }
        }
    }

    private func write(_ body: [UInt8]) -> HostError? {
        guard let p = process.withLock({ $0 }) else { return .closed }
        do {
            try p.send(body)
            return nil
        } catch {
            // The plugin is gone; its exit will be reported by the reader shortly.
            return .pluginExited(p.waitForExit(timeout: .milliseconds(100)))
        }
    }

    // MARK: - Reading

    private func received(_ frame: ArraySlice<UInt8>) {
        switch Envelope.parse(frame) {
        case .single(.response(let response)):
            deliver(response)
        case .single(.notification(let n)):
            options.tap?(.receivedNotification(n))
            notificationContinuation.yield(n)
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
    private func protocolError(_ detail: String) {
        options.tap?(.protocolError(detail))
        Log.stderr("plugin-host: protocol error: \(detail)")
        pending.failAll(.protocolError(detail))
        process.withLock { $0 }?.kill()
    }

    private func outputEnded(_ status: ExitStatus?) {
        options.tap?(.closed(status))
        pending.failAll(.pluginExited(status))
        notificationContinuation.finish()
    }

    // MARK: - Closing

    /// Closes stdin, waits for the plugin to exit (then SIGTERM, SIGKILL), reaps it.
    /// Pending calls fail. Returns how the plugin ended.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus {
        let status = pluginProcess.close(grace: grace)
        _ = pluginProcess.waitUntilClosed(timeout: .seconds(5))
        pending.failAll(.closed)
        return status
    }

    /// Call timeouts still holding a timer (answered or failed calls release theirs at once).
    static var liveTimeouts: Int { CallTimer.live.load(ordering: .relaxed) }

    deinit {
        if let p = process.withLock({ $0 }), p.exitStatus == nil {
            p.close(grace: .milliseconds(200))
        }
    }
}

extension PluginConnection {
    static func encode<P: JSONEncodable>(_ params: P) -> JSONValue? {
        params is EmptyParams ? nil : params.json
    }

    static func decode<M: RPCMethod>(_: M.Type, _ raw: JSONValue) throws(HostError) -> M.Result {
        do {
            return try M.Result(json: raw)
        } catch {
            throw HostError.invalidResult(method: M.name, detail: error.description)
        }
    }
}

/// A call's timeout: a one-shot timer source, cancelled (and so released at once)
/// when the call completes first.
private final class CallTimer: Sendable {
    /// Timers alive now, for tests: answered calls must not keep theirs.
    static let live = Atomic<Int>(0)
    private nonisolated(unsafe) let source: DispatchSourceTimer  // thread-safe: schedule before resume, then only cancel()

    init(after timeout: Duration, _ handler: @escaping @Sendable (Double) -> Void) {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler { handler(seconds) }
        source.schedule(deadline: .now() + seconds)
        source.resume()
        CallTimer.live.add(1, ordering: .relaxed)
    }

    deinit {
        source.cancel()
        CallTimer.live.subtract(1, ordering: .relaxed)
    }

    func cancel() { source.cancel() }
}

/// Where a call's timer lives: armed after the request is written, unless the call
/// has completed by then; released when it completes.
private final class TimeoutSlot: Sendable {
    private let state = Mutex<(finished: Bool, timer: CallTimer?)>((false, nil))

    func arm(after timeout: Duration, _ handler: @escaping @Sendable (Double) -> Void) {
        state.withLock { s in
            if !s.finished { s.timer = CallTimer(after: timeout, handler) }
        }
    }

    func finish() {
        let timer = state.withLock { s -> CallTimer? in
            s.finished = true
            defer { s.timer = nil }
            return s.timer
        }
        timer?.cancel()
    }
}
