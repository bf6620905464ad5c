import HostProtocol
import PluginHost

/// Frames as the driver reads and writes them: ndjson scripts, a cheap test for junk
/// on the reader thread, parsing, and what a message shows of a frame.
extension PluginDriver {
    /// Whether a frame can be a JSON-RPC message or batch: its first byte past any
    /// whitespace opens an object or an array (a cheap test on the reader thread; the
    /// frames that do not agree with the model are parsed later, and junk found then).
    static func looksLikeJSON(_ frame: ArraySlice<UInt8>) -> Bool {
        for byte in frame {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }

    /// A frame shortened for a message: its first 120 bytes, as a JSON string.
    static func excerpt(_ frame: some Collection<UInt8>) -> String {
        let text = String(decoding: frame.prefix(120), as: UTF8.self)
        return JSONValue.string(text).description + (frame.count > 120 ? " (\(OutputMeter.size(frame.count)))" : "")
    }

    /// Parses a frame; nil when it is not JSON.
    static func parsed(_ frame: [UInt8]) -> JSONValue? { try? JSONParser.parse(frame) }

    /// Parses frames; one that is not JSON is junk (``DriverError/junk(_:)``).
    static func parseAll(_ frames: some Collection<[UInt8]>) throws(DriverError) -> [JSONValue] {
        var out: [JSONValue] = []
        out.reserveCapacity(frames.count)
        for frame in frames {
            guard let value = parsed(frame) else { throw .junk("a line that is not JSON: \(excerpt(frame))") }
            out.append(value)
        }
        return out
    }

    /// Frames steps as ndjson bytes.
    public static func encode(_ steps: [FuzzStep]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(steps.count * 80)
        for step in steps {
            switch step.input {
            case .request(let r): MessageWriter.appendRequest(id: r.id, method: r.method, params: r.params, to: &bytes)
            case .notification(let n): MessageWriter.appendNotification(method: n.method, params: n.params, to: &bytes)
            case .batch: JSONWriter.write(step.json, to: &bytes)
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Why a barrier's answer may never have come: the plugin answered with ids never
    /// sent (results only: an error before a case's reset may answer an earlier case).
    static func unknownAnswer(in frames: [[UInt8]], script: [UInt8]) -> DriverError? {
        let results = frames.prefix(1000).compactMap(parsed).filter { $0["result"] != nil }
        guard !results.isEmpty,
            case .unknownID(let id)? = PluginCase.firstProblem(results, sent: PluginCase.sentIDs(encoded: script))
        else { return nil }
        return .unknownID("\(id), which was never sent; the answer to the case's closing request never came")
    }
}
