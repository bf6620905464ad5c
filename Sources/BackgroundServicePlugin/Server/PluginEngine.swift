import EmulatedIOS
import HostProtocol

/// The whole plugin as a pure state machine: bytes in, bytes out.
///
/// The engine owns the framing decoder, the JSON-RPC rules (batches,
/// notifications, pending ids, params), the session, and the
/// ``PluginWorld`` (the seed port on its emulated OS). It does no I/O and reads
/// no clock except through the injected monotonic source (real clock only), so
/// under the virtual clock its output is a pure function of its input.
/// The runtime calls it from one serial owner; tests call it directly.
///
/// ```swift
/// let engine = try PluginEngine(options: PluginOptions())
/// engine.receive(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"plugin/state\"}\n".utf8))
/// let reply = engine.takeOutput()
/// ```
public final class PluginEngine {
    let options: PluginOptions
    let infoPlist: InfoPlist
    /// The port's programs, built by the first world and shared by every later one.
    let programs = ProgramLibrary()
    // `@exclusivity(unchecked)` where marked (read on every request): no access to these
    // spans a call into other code (`docs/architecture.md`, "One serial owner").
    @exclusivity(unchecked) private var decoder: FrameDecoder
    let output = OutputBuffer()
    private(set) var world: PluginWorld!
    private let monotonicNanoseconds: () -> UInt64
    let log: (String) -> Void
    /// Ids of requests accepted and not answered yet, compared byte for byte.
    @exclusivity(unchecked) var pendingIDs = PendingIDs()
    /// How routes and batches reach the engine without keeping it alive.
    let engineHandle = EngineHandle()
    var initializedWithEvents = false
    /// The last `plugin/state` answer and its JSON: an equal snapshot is not encoded again
    /// (the encoding is a sixth to a quarter of a system-level step, `docs/benchmarks.md`).
    var lastState: (snapshot: PluginStateSnapshot, json: JSONValue)?
    /// Set when a `BSP_FAULT` replaces `plugin/state`'s handler (`installHostFaults`):
    /// only a request then says what the method answers (`stateWithoutRequest(id:)`).
    var stateMethodReplaced = false
    /// Set by `shutdown`: no further input is processed.
    public private(set) var isShutDown = false
    /// Handlers by method name.
    @exclusivity(unchecked) var handlers = HandlerTable(queue: PluginEngine.queue(of:))
    /// Set by the `exit-mid-frame-on-state` fault: the runtime exits with it after writing.
    public internal(set) var requestedExitStatus: Int32?
    /// The emulated `ipc` and main queues (`--dispatch`); they outlive `plugin/reset`.
    let dispatcher: Dispatcher

    /// Creates an engine; throws when the Info.plist cannot be used or registration fails.
    public init(
        options: PluginOptions, monotonicNanoseconds: @escaping () -> UInt64 = { 0 },
        log: @escaping (String) -> Void = { _ in }
    ) throws(PluginOptions.UsageError) {
        self.options = options
        self.monotonicNanoseconds = monotonicNanoseconds
        self.log = log
        dispatcher = Dispatcher(mode: options.dispatch, seed: options.dispatchSeed)
        decoder = FrameDecoder(mode: options.framing, maxFrameBytes: options.maxFrameBytes)
        if let path = options.infoPlistPath {
            do {
                let (plist, warnings) = try InfoPlist.load(path: path, bundleIdentifier: options.bundleIdentifier)
                for warning in warnings { log("warning: \(warning)") }
                infoPlist = plist
            } catch {
                throw PluginOptions.UsageError("--info-plist: \(error.description)")
            }
        } else {
            infoPlist = .defaultPlist(bundleIdentifier: options.bundleIdentifier)
        }
        output.forceNDJSON = options.faults.contains(.replyFramingNDJSON)
        if let detected = decoder.detected { output.framing = detected }
        updateEventsEnabled()
        do {
            world = try makeWorld()
        } catch {
            throw PluginOptions.UsageError("BGTaskScheduler: \(error.description)")
        }
        installHandlers()
        installHostFaults()
        engineHandle.engine = self
    }

    func makeWorld() throws(BGTaskScheduler.RegistrationError) -> PluginWorld {
        let events = EventSink(
            emit: { [unowned self] name, params in self.output.writeEvent(name, params) },
            log: log)
        return try PluginWorld(
            options: options, infoPlist: infoPlist, events: events, monotonicNanoseconds: monotonicNanoseconds,
            dispatcher: dispatcher, programs: programs)
    }

    /// Replaces the world with a fresh one (`plugin/reset`), and the dispatch schedule with
    /// the one the flags give.
    func resetWorld() {
        let old = world!
        dispatcher.reset()
        do {
            world = try makeWorld()
        } catch {
            // Registration cannot fail twice the same way it succeeded at start.
            log("internal error: reset failed: \(error)")
            return
        }
        if options.faults.contains(.resetKeepsConfig) { world.plugin.restore(old.plugin.observed.config) }
    }

    func updateEventsEnabled() {
        output.eventsEnabled = options.events || initializedWithEvents || options.faults.contains(.eventsAlwaysOn)
    }

    // MARK: - Input

    /// Feeds bytes from stdin and processes every complete frame.
    public func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !isShutDown else { return }
        syncRealClock()
        decoder.append(bytes)
        drainFrames()
    }

    /// Feeds bytes from stdin and processes every complete frame.
    public func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// Call at EOF: processes a final unterminated ndjson line, or answers a
    /// frame cut off by the end of input.
    public func endOfInput() {
        guard !isShutDown else { return }
        do {
            if let last = try decoder.finish() { process(frame: last) }
        } catch {
            log("input ended mid-frame: \(error.description)")
            output.write(.failure(id: .null, error: error.rpcError))
        }
    }

    private func drainFrames() {
        while !isShutDown {
            let frame: ArraySlice<UInt8>?
            do {
                frame = try decoder.nextFrame()
            } catch {
                answerFramingError(error)
                continue
            }
            if output.framing != decoder.detected, let detected = decoder.detected { output.framing = detected }
            guard let frame else { return }
            process(frame: frame)
        }
    }

    private func answerFramingError(_ error: FramingError) {
        if let detected = decoder.detected { output.framing = detected }
        log("framing: \(error.description)")
        var rpc = error.rpcError
        if case .oversized = error, options.faults.contains(.oversizedWrongCode) { rpc.code = .parseError }
        output.write(.failure(id: .null, error: rpc))
    }

    /// Handles one frame: a message or a batch.
    func process(frame: ArraySlice<UInt8>) {
        switch Envelope.parse(frame) {
        case .single(let message):
            handle(message, batch: nil)
        case .batch(let messages):
            // Through the weak handle: a batch held open by a pending `waitForCancel`
            // may settle while the engine is being released (see `makeRoute`).
            let weakEngine = self.engineHandle
            let reply = BatchReply(
                write: { responses in
                    guard let engine = weakEngine.engine else { return }
                    engine.output.write(
                        batch: engine.options.faults.contains(.batchReversed) ? responses.reversed() : responses)
                },
                writeError: { error in weakEngine.engine?.output.write(id: .null, .failure(error)) })
            // Under `--dispatch tauri` the batch's jobs are in progress at once (`Dispatcher`).
            dispatcher.batch {
                for message in messages { handle(message, batch: reply) }
            }
            reply.release()
        }
    }

    // MARK: - Output

    /// Takes the bytes to write to stdout.
    public func takeOutput() -> [UInt8] { output.take() }

    /// Hands the bytes to write to `write`, then forgets them, keeping the buffer (no
    /// copy and no new allocation, as taking them would cost).
    public func writeOutput(_ write: (UnsafeRawBufferPointer) -> Void) { output.drain(write) }

    /// Whether there is output to write.
    public var hasOutput: Bool { !output.isEmpty }

    // MARK: - Real clock

    /// Real clock: fires whatever has come due. Call when the wake-up delay passes.
    public func wakeUp() {
        guard !isShutDown else { return }
        syncRealClock()
    }

    /// Real clock: real nanoseconds until something is due, nil when nothing is.
    public var nextWakeupDelay: UInt64? {
        guard options.clock == .real, !isShutDown, let due = world.os.nextDueTime() else { return nil }
        return world.clock.realDelay(until: due)
    }

    private func syncRealClock() {
        guard options.clock == .real else { return }
        world.os.advance(to: world.clock.realNow)
    }

    func markShutDown() { isShutDown = true }
}

/// A weak reference to the engine, shared by everything that may outlive it
/// (one weak reference per engine, not one per request): the sink of its invokes.
final class EngineHandle: InvokeSink {
    weak var engine: PluginEngine?

    func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route) {
        engine?.deliver(outcome, for: route)
    }

    func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route) {
        engine?.answeredTwice(detail, outcome, for: route)
    }
}
