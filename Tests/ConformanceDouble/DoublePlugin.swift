import BackgroundServicePlugin
import HostProtocol

/// A second plugin for the conformance suite's own tests: conforming, but making
/// other choices wherever the contract leaves one open, so that a suite that only
/// our plugin's bytes could pass fails here.
///
/// Its behaviour comes from a `PluginEngine` fed ndjson; everything on the wire is
/// its own: it decodes the host's framing itself, and rewrites what it writes:
/// - every event carries `at` (the plugin's time when it happened) and `seq` (a
///   per-process counter), unknown members the suite must ignore; `at`, `now`, an
///   event's `deadline` and `earliestBeginDate` are written as Rust's serde_json
///   writes an `f64` (`900.0`, `6e-6`, `1e16`), the same JSON numbers;
/// - every result object carries `"x-double": true`, every error message starts
///   with `double: ` and errors other than -32000/-32001 carry `data.double`;
/// - an Invalid Request (-32600) is answered with `id: null`, whatever id it had;
/// - `plugin/state.registered` is an object keyed by identifier (`{id: kind}`);
/// - it offers neither `os/submit` nor `rpc.discover` (both are -32601).
final class DoublePlugin {
    private var decoder: FrameDecoder
    private let engine: PluginEngine
    private var seq = 0
    /// The plugin's time as last seen on the wire (results and events carry it).
    var now: JSONValue = 0
    /// Extensions this plugin does not offer.
    private static let withheld: Set<String> = ["os/submit", "rpc.discover"]

    init(engine: PluginEngine, framing: FramingMode, maxFrameBytes: Int) {
        self.engine = engine
        decoder = FrameDecoder(mode: framing, maxFrameBytes: maxFrameBytes)
    }

    /// The next event's `seq`.
    func nextSeq() -> Int {
        seq += 1
        return seq
    }

    /// Whether `shutdown` was served (the process exits once the output is written).
    var isShutDown: Bool { engine.isShutDown }

    /// Feeds bytes from stdin; returns the bytes to write.
    func receive(_ bytes: [UInt8]) -> [UInt8] {
        decoder.append(bytes)
        var out: [UInt8] = []
        while !engine.isShutDown {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                out += handle(frame)
            } catch {
                out += write(Response(id: .null, outcome: .failure(error.rpcError)).json)
            }
        }
        return out
    }

    /// At the end of input: a last unterminated frame, or the error for a cut-off one.
    func endOfInput() -> [UInt8] {
        do {
            guard let last = try decoder.finish() else { return [] }
            return handle(last)
        } catch {
            return write(Response(id: .null, outcome: .failure(error.rpcError)).json)
        }
    }

    /// Real clock: fires what is due.
    func wakeUp() -> [UInt8] {
        engine.wakeUp()
        return drain()
    }

    /// Real nanoseconds until the engine has something due.
    var nextWakeupDelay: UInt64? { engine.nextWakeupDelay }

    private func handle(_ frame: ArraySlice<UInt8>) -> [UInt8] {
        guard let value = try? JSONParser.parse(Array(frame)) else {
            return write(Response(id: .null, outcome: .failure(.parseError("double: not JSON"))).json)
        }
        let forwarded: JSONValue
        switch value {
        case .array(let items): forwarded = .array(items.map(withhold))
        default: forwarded = withhold(value)
        }
        if forwarded["method"]?.stringValue == PluginReset.name { now = 0 }
        engine.receive(forwarded.compactBytes + [0x0A])
        return drain()
    }

    /// A request for a withheld extension, renamed so that the engine answers -32601.
    private func withhold(_ message: JSONValue) -> JSONValue {
        guard case .object(var o) = message, let method = o["method"]?.stringValue, Self.withheld.contains(method)
        else { return message }
        o["method"] = .string("double/not-offered/" + method)
        return .object(o)
    }

    private func drain() -> [UInt8] {
        var out: [UInt8] = []
        for line in engine.takeOutput().split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)) else { continue }
            out += write(value.arrayValue.map { .array($0.map(rewrite)) } ?? rewrite(value))
        }
        return out
    }

    private func write(_ value: JSONValue) -> [UInt8] {
        FrameEncoder.frame(value.compactBytes, framing: decoder.detected ?? .ndjson)
    }
}
