import HostProtocol
import HostTestSupport
import PluginInProcess
import Synchronization
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The simulation's guard against a plugin whose state and behaviour disagree: it says
/// something is due now and never acts on it. `advance` gives up after
/// `maxStepsPerInstant` steps at one instant with `runaway`, instead of stepping 100,000
/// times (what made a 60 s `--dispatch tauri` fuzz run last more than ten minutes).
@Suite("Simulation runaway guard")
struct SimulationRunawayTests {
    @Test func aPluginThatNeverActsOnWhatIsDueEndsTheAdvance() async throws {
        let lies = LyingTransport.Counter()
        let launcher = PluginLauncher(description: "lying builtin") { sink throws(HostError) in
            LyingTransport(
                inner: try PluginLauncher.inProcess(arguments: ["--clock", "virtual"]).start(stderrLine: sink),
                lies: lies)
        }
        let outcome = try await onThread { () throws -> Result<Void, SystemSimulation.SimulationError> in
            let options = SystemSimulation.Options(plugin: launcher, serviceFactory: { SyncService(runSeconds: 1) })
            let sim = try SystemSimulation(options: options)
            defer { sim.close() }
            let minute = VirtualTime(nanoseconds: 60_000_000_000)
            return Result { () throws(SystemSimulation.SimulationError) in try sim.advance(by: minute) }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("60 s of a plugin that never acts on its due safety timer ended without an error")
            return
        }
        #expect(error.code == .runaway)
        #expect(error.description == "advance: more than \(SystemSimulation.maxStepsPerInstant) steps at one time")
        // One plugin/state per step, and the guard stops at the bound, not the 100,000 overall.
        let told = lies.value
        #expect(told > SystemSimulation.maxStepsPerInstant && told < 2 * SystemSimulation.maxStepsPerInstant)
    }
}

/// A transport around the plugin's engine that rewrites every `plugin/state` answer to
/// say its safety timer is due now (its `now`): a plugin that claims work it never does.
private final class LyingTransport: PluginTransport {
    /// How many answers were rewritten.
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    private let inner: any PluginTransport
    private let lies: Counter
    /// The engine's output, decoded with the project's codec, and rewritten frames not yet handed out.
    private let buffers: Mutex<(decoder: FrameDecoder, ready: [UInt8])>

    init(inner: any PluginTransport, lies: Counter) {
        self.inner = inner
        self.lies = lies
        let mode: FramingMode = inner.framing == .lsp ? .lsp : .ndjson
        buffers = Mutex((FrameDecoder(mode: mode, maxFrameBytes: inner.maxFrameBytes), []))
    }

    var framing: Framing { inner.framing }
    var maxFrameBytes: Int { inner.maxFrameBytes }
    var exitStatus: PluginHost.ExitStatus? { inner.exitStatus }
    func send(_ bytes: [UInt8]) throws(HostError) { try inner.send(bytes) }
    func closeInput() { inner.closeInput() }
    func terminate() { inner.terminate() }
    func waitForExit(timeout: Duration) -> PluginHost.ExitStatus? { inner.waitForExit(timeout: timeout) }
    func close(grace: Duration) -> PluginHost.ExitStatus { inner.close(grace: grace) }

    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let handed = buffers.withLock { b -> Int in
                let n = min(b.ready.count, buffer.count)
                guard n > 0 else { return 0 }
                b.ready.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                b.ready.removeFirst(n)
                return n
            }
            if handed > 0 { return handed }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let got = chunk.withUnsafeMutableBytes { inner.receive(into: $0) }
            if got <= 0 { return got }
            buffers.withLock { b in
                b.decoder.append(Array(chunk[0..<got]))
                while let frame = try? b.decoder.nextFrame() {
                    b.ready += FrameEncoder.frame(rewrite(Array(frame)), framing: framing)
                }
            }
        }
    }

    private func rewrite(_ body: [UInt8]) -> [UInt8] {
        guard case .object(var message)? = try? JSONParser.parse(body),
            case .object(var state)? = message["result"], let now = state["now"], state["pendingRequests"] != nil
        else { return body }
        state["safetyTimer"] = ["deadline": now]
        message["result"] = .object(state)
        lies.add()
        return JSONValue.object(message).compactBytes
    }
}
