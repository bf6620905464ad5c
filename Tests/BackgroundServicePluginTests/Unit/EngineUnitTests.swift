import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `PluginEngine` driven in-process: bytes in, bytes out.
@Suite("unit: PluginEngine")
struct EngineUnitTests {
    static let script = [
        req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID), advance(4, "27.5"),
        req(5, "completeBgTask", #"{"success":false}"#), "[\(state(6)),\(note("cancelCancelListener"))]",
    ]

    static func output(_ chunks: [[UInt8]], options: PluginOptions = PluginOptions()) throws -> String {
        let engine = try PluginEngine(options: options)
        var out: [UInt8] = []
        for chunk in chunks {
            engine.receive(chunk)
            out += engine.takeOutput()
        }
        engine.endOfInput()
        out += engine.takeOutput()
        return String(decoding: out, as: UTF8.self)
    }

    /// The engine's output equals the binary's for the same input.
    @Test func engineMatchesTheBinary() throws {
        let input = Array(Self.script.map { $0 + "\n" }.joined().utf8)
        let binary = try Plugin.run(["--events"], input: input)
        var options = PluginOptions()
        options.events = true
        #expect(try Self.output([input], options: options) == String(decoding: binary.stdout, as: UTF8.self))
        #expect(binary.lines.count == 14)
    }

    /// Input split at every byte gives the same output as input in one piece.
    @Test func byteByByteEqualsWhole() throws {
        let input = Array(Self.script.map { $0 + "\n" }.joined().utf8)
        let whole = try Self.output([input])
        let pieces = try Self.output(input.map { [$0] })
        #expect(whole == pieces)
        #expect(whole.hasSuffix("\"safetyTimer\":null}}]\n"))
    }

    /// Output is produced as soon as a frame is complete, not before.
    @Test func outputPerFrame() throws {
        let engine = try PluginEngine(options: PluginOptions())
        let line = Array((advance(1, "2") + "\n").utf8)
        engine.receive(Array(line.dropLast()))
        #expect(!engine.hasOutput)
        engine.receive([line.last!])
        #expect(String(decoding: engine.takeOutput(), as: UTF8.self) == now(1, "2") + "\n")
        #expect(!engine.hasOutput)
    }

    /// After `shutdown` the engine stops reading.
    @Test func shutdownStopsInput() throws {
        let engine = try PluginEngine(options: PluginOptions())
        engine.receive(Array((req(1, "shutdown") + "\n" + advance(2, "1") + "\n").utf8))
        #expect(engine.isShutDown)
        #expect(String(decoding: engine.takeOutput(), as: UTF8.self) == ok(1) + "\n")
        engine.receive(Array((advance(3, "1") + "\n").utf8))
        engine.endOfInput()
        #expect(!engine.hasOutput)
    }

    /// plugin/reset rebuilds the world: a new scheduler, clock and plugin.
    @Test func resetReplacesTheWorld() throws {
        let engine = try PluginEngine(options: PluginOptions())
        let before = engine.world!
        engine.receive(Array((advance(1, "9") + "\n" + req(2, "plugin/reset") + "\n").utf8))
        #expect(engine.world !== before)
        #expect(engine.world.clock.now == .zero)
        #expect(engine.world.os.scheduler.registrations.count == 2)
        #expect(engine.world.events.counters == PluginStateSnapshot.Counters())
    }
}
