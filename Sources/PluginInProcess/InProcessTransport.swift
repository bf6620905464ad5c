import BackgroundServicePlugin
import Dispatch
import Foundation
import HostProtocol
import PluginHost
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The plugin's engine in this process, behind the transport seam: what is sent
/// goes straight into `PluginEngine.receive`, and what the engine writes comes back
/// from ``receive(into:)``, byte for byte what the binary would write to stdout.
///
/// The engine keeps its one serial owner: it lives in a `Mutex`, entered by senders
/// and, under `--clock real`, by a timer that fires when the engine's next wake-up
/// is due (no polling). `shutdown`, the end of input and the engine's exit fault end
/// the output with the status the binary would exit with.
///
/// ```swift
/// let transport = try InProcessTransport(arguments: ["--profile", "strict"])
/// let connection = PluginConnection(transport: transport)
/// ```
public final class InProcessTransport: PluginTransport, InlineOutput, StateReading {
    /// The engine's framing (`--framing lsp` gives LSP, anything else NDJSON).
    public let framing: Framing
    /// The largest frame a reader accepts from the engine.
    public let maxFrameBytes = 16 << 20
    private let engine: Mutex<PluginEngine>
    let output = Outbox()
    /// The engine's log lines, passed on once its lock is released (no host code runs under it).
    private let log: LogRelay
    private let echo: Bool
    private let clock: WakeUpTimer?
    /// The connection the output is handed to on the writing thread, once one asks (`InlineOutput`).
    private let relay = InlineRelay()

    /// Starts an engine as the binary would with these arguments, the host's
    /// environment plus `environment` (`BSP_FAULT`); its log lines, prefixed as the
    /// binary's stderr lines are, go to `stderrLine`. Bad arguments fail with
    /// ``HostError/Code/launchFailed``.
    public convenience init(
        arguments: [String] = [], environment: [String: String] = [:], stderrPrefix: String = "[plugin] ",
        stderrLine: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) throws(HostError) {
        var merged = ProcessInfo.processInfo.environment
        for (k, v) in environment { merged[k] = v }
        let options: PluginOptions
        do {
            guard case .run(let parsed) = try PluginOptions.parse(arguments, environment: merged) else {
                throw HostError.launchFailed("--help and --version do not start a plugin")
            }
            options = parsed
        } catch let error as HostError {
            throw error
        } catch {
            throw .launchFailed("\(error)")
        }
        try self.init(options: options, stderrLine: { stderrLine(stderrPrefix + $0) })
    }

    /// Starts an engine with these options; its log lines go to `stderrLine` as
    /// `background-service-plugin: LINE`.
    public init(options: PluginOptions, stderrLine: @escaping @Sendable (String) -> Void) throws(HostError) {
        framing = options.framing == .lsp ? .lsp : .ndjson
        echo = options.echo
        let log = LogRelay(stderrLine)
        let made: PluginEngine
        do {
            made = try PluginEngine(
                options: options, monotonicNanoseconds: { DispatchTime.now().uptimeNanoseconds },
                log: { log.add("background-service-plugin: " + Stderr.oneLine($0)) })
        } catch {
            log.flush()
            throw .launchFailed(error.description)
        }
        log.flush()
        self.log = log
        engine = Mutex(made)
        clock = options.clock == .real && !options.echo ? WakeUpTimer() : nil
        clock?.start { [weak self] in
            try? self?.step { $0.wakeUp() }
            self?.pump()
        }
    }

    deinit { clock?.stop() }

    /// Feeds bytes to the engine (or, with `--echo`, straight back); fails once its output has ended.
    public func send(_ bytes: [UInt8]) throws(HostError) {
        if echo {
            try output.append(bytes)
            return
        }
        try step { $0.receive(bytes) }
    }

    /// Waits for the engine's output and copies it; 0 once it has ended and all of it was taken.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int { output.take(into: buffer) }

    /// Hands the output to `consumer` from now on, through ``pump()`` (no reader
    /// thread), starting with what the engine wrote before.
    package func deliverInline(to consumer: @escaping @Sendable (InlineOutputChunk) -> Void) {
        relay.install(consumer)
        pump()
    }

    /// Hands what the engine has written to the consumer on this thread (`InlineOutput`).
    package func pump() { relay.pump(output) }

    /// The engine's `plugin/state` snapshot without the request (`StateReading`,
    /// `PluginEngine.stateWithoutRequest(id:)`); what the engine wrote meanwhile is handed
    /// to the connection before this returns, unless another thread is handing output over.
    package func readState(asID id: RequestID) -> PluginStateSnapshot? {
        guard !echo else { return nil }
        var snapshot: PluginStateSnapshot?
        try? step { snapshot = $0.stateWithoutRequest(id: id) }
        pump()
        return snapshot
    }

    /// Ends the engine's input as a closed stdin does: the engine answers what the end
    /// completes (a last request without its newline) or cuts off (`-32700`), that
    /// output is moved out, and only then the output ends with status 0.
    public func closeInput() {
        try? step { $0.endOfInput() }
        engine.withLock { _ in output.end(.exited(0)) }
        clock?.stop()
        pump()
    }

    /// Ends the output at once as a SIGKILL would (`.signaled(SIGKILL)`).
    public func terminate() {
        engine.withLock { _ in output.end(.signaled(SIGKILL)) }
        clock?.stop()
        pump()
    }

    /// How the output ended, nil while it goes on.
    public var exitStatus: ExitStatus? { output.status }

    /// Waits up to `timeout` for the output to end.
    public func waitForExit(timeout: Duration) -> ExitStatus? { output.waitForEnd(timeout: timeout) }

    /// Ends the input (``closeInput()``); the engine has no process to wait for, so `grace` is not needed.
    @discardableResult
    public func close(grace: Duration) -> ExitStatus {
        closeInput()
        return output.status ?? .exited(0)
    }

    /// Runs `work` on the engine under its lock, then, still under it, moves what it
    /// wrote to the output (so that output keeps the engine's order), ends the output
    /// when the engine has finished, and re-arms the real clock's wake-up.
    private func step(_ work: (PluginEngine) -> Void) throws(HostError) {
        defer { log.flush() }
        try engine.withLock { engine throws(HostError) in
            if let status = output.status { throw .pluginExited(status) }
            work(engine)
            if engine.hasOutput { try? output.append(engine.takeOutput()) }
            if let status = engine.requestedExitStatus {
                output.end(.exited(status))
            } else if engine.isShutDown {
                output.end(.exited(0))
            }
            if output.status != nil {
                clock?.stop()
            } else {
                clock?.arm(afterNanoseconds: engine.nextWakeupDelay)
            }
        }
    }
}

/// Log lines the engine wrote under its lock, passed to the sink after it.
final class LogRelay: Sendable {
    private let lines = Mutex<[String]>([])
    private let sink: @Sendable (String) -> Void

    init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    func flush() {
        let taken = lines.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
        for line in taken { sink(line) }
    }
}
