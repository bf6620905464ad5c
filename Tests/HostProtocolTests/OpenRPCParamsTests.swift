import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// The OpenRPC document says what the code accepts: each method's params, as the typed
/// decoders (`M.Params(json:)`, the plugin's own) read them, in both directions.
///
/// - Every member a decoder reads is a documented param: each candidate name (every string
///   literal of `Sources/HostProtocol/Methods`, every member a `Codable` declaration reads,
///   and every name in the document) is sent with
///   values no field reader takes; a decoder that rejects it, naming the member, reads it.
/// - Every documented param is read: sent with a value its schema rejects, the decoder
///   rejects it, naming the member.
@Suite("OpenRPC document: params as the code reads them")
struct OpenRPCParamsTests {
    /// One typed decoder per method as a plugin serves it (`os/setConditions` twice: the
    /// contract's members, and `--os ios`'s wider params).
    struct Decoder: CustomStringConvertible, Sendable {
        let method: String
        let os: OSMode
        let decode: @Sendable (JSONValue) throws(JSONDecodingError) -> Void
        var description: String { "\(method) (--os \(os.rawValue))" }

        init<M: RPCMethod>(_: M.Type, os: OSMode = .manual) {
            self.init(M.self, os: os, M.Params.self)
        }

        init<M: RPCMethod, P: JSONDecodable>(_: M.Type, os: OSMode, _: P.Type) {
            method = M.name
            self.os = os
            decode = { json throws(JSONDecodingError) in _ = try P(json: json) }
        }
    }

    static let decoders: [Decoder] = [
        Decoder(StartKeepalive.self), Decoder(WaitForCancel.self), Decoder(CompleteBgTask.self),
        Decoder(StopKeepalive.self), Decoder(CancelCancelListener.self), Decoder(OSLaunch.self),
        Decoder(OSExpire.self), Decoder(OSAdvanceTime.self), Decoder(OSPendingTaskRequests.self),
        Decoder(OSSetConditions.self), Decoder(OSSubmit.self), Decoder(Initialize.self), Decoder(Shutdown.self),
        Decoder(PluginStateMethod.self), Decoder(PluginReset.self), Decoder(PluginDispatchSchedule.self),
        Decoder(RPCDiscover.self), Decoder(OSTerminate.self, os: .ios), Decoder(OSOpenApp.self, os: .ios),
        Decoder(OSExplain.self, os: .ios), Decoder(OSSetPolicy.self, os: .ios),
        Decoder(OSSetConditions.self, os: .ios, OSSetConditions.IOSParams.self),
        Decoder(OSWebviewCreated.self, os: .ios), Decoder(OSBlockMain.self, os: .ios),
        Decoder(OSSendToBackground.self, os: .ios),
    ]

    static let schema = JSONSchema(document: OpenRPCDocument.value)

    /// Values no field reader of the code takes (a number, string, boolean, time, enum name,
    /// array of names): an object with a control-character key, and an array of `null`.
    static let strangers: [JSONValue] = [["\u{1}": [.null]], [.null]]

    /// The method's documented params that a plugin running with `os` reads.
    static func params(_ decoder: Decoder) -> [(name: String, schema: JSONValue, required: Bool)] {
        let method = OpenRPCDocument.method(named: decoder.method)
        return (method?["params"]?.arrayValue ?? []).compactMap { p in
            guard let name = p["name"]?.stringValue, let schema = p["schema"] else { return nil }
            if decoder.os == .manual, p["x-os"] == "ios" { return nil }
            return (name, schema, p["required"] == true)
        }
    }

    /// A value a schema takes: the first enum or const value, the minimum, or a plain one.
    static func example(_ schema: JSONValue) -> JSONValue {
        if let target = schema["$ref"]?.stringValue.flatMap(Self.schema.resolve) { return example(target) }
        if let first = schema["enum"]?.arrayValue?.first { return first }
        if let constant = schema["const"] { return constant }
        if let first = schema["anyOf"]?.arrayValue?.first { return example(first) }
        let type = schema["type"]?.stringValue ?? schema["type"]?.arrayValue?.first?.stringValue
        switch type {
        case "number", "integer": return schema["minimum"] ?? 1
        case "boolean": return true
        case "object": return [:]
        case "array": return .array([])
        default: return "com.example.app.bg-refresh"
        }
    }

    /// The smallest params a decoder takes: the required params, each with an example.
    static func minimal(_ decoder: Decoder) -> JSONObject {
        var o = JSONObject()
        for p in params(decoder) where p.required { o[p.name] = example(p.schema) }
        return o
    }

    /// Whether `error` names `member` (`seconds`, `capabilities.events`, `choices[1]`).
    static func names(_ error: JSONDecodingError, _ member: String) -> Bool {
        error.path == member || error.path.hasPrefix(member + ".") || error.path.hasPrefix(member + "[")
    }

    /// Every string literal that could be a member name in the typed methods' sources, every
    /// member the `Codable` declarations read (``JSONShape``), and every name the document uses.
    static var candidates: Set<String> {
        get throws {
            let dir = PackageRoot.url("Sources/HostProtocol/Methods")
            var names: Set<String> = []
            for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                let literal = try Regex(#""([A-Za-z][A-Za-z0-9]*)""#)
                for match in text.matches(of: literal) {
                    names.insert(String(text[match.range]).trimmingCharacters(in: ["\""]))
                }
            }
            func collect(_ v: JSONValue) {
                switch v {
                case .object(let o):
                    for (k, value) in o {
                        names.insert(k)
                        if k == "name", let s = value.stringValue { names.insert(s) }
                        collect(value)
                    }
                case .array(let a): a.forEach(collect)
                default: break
                }
            }
            collect(OpenRPCDocument.value)
            // The members the Codable declarations read (their names are no string literals).
            func members(_ shape: JSONShape) {
                for (key, member) in shape.members {
                    names.insert(key)
                    member.shape.map(members)
                }
                shape.elements.forEach(members)
            }
            for d in OpenRPCShapeTests.declared {
                members(d.params)
                d.result.map(members)
            }
            return names
        }
    }

    /// The table covers every method a plugin serves, under each mode.
    @Test func everyMethodHasItsDecoder() {
        let served = Set(MethodRegistry.methods.map(\.name)).union(MethodRegistry.iosMethods.map(\.name))
        #expect(Set(Self.decoders.map(\.method)) == served)
        for d in Self.decoders {
            #expect(throws: Never.self, "\(d): its minimal params") { try d.decode(.object(Self.minimal(d))) }
        }
    }

    /// No decoder reads a member the document does not describe for its method.
    @Test func everyMemberReadIsDocumented() throws {
        let candidates = try Self.candidates
        #expect(candidates.count > 150 && candidates.contains("batteryLevel") && candidates.contains("seed"))
        for d in Self.decoders {
            let documented = Set(Self.params(d).map(\.name))
            for name in candidates.subtracting(documented) {
                for stranger in Self.strangers {
                    var o = Self.minimal(d)
                    o[name] = stranger
                    do throws(JSONDecodingError) {
                        try d.decode(.object(o))
                    } catch {
                        #expect(!Self.names(error, name), "\(d) reads \"\(name)\", which its params do not list")
                    }
                }
            }
        }
    }

    /// Every documented param is read: a value its schema rejects is rejected, naming it.
    @Test func everyDocumentedParamIsRead() throws {
        var checked = 0
        for d in Self.decoders {
            for p in Self.params(d) {
                let wrong = try #require(
                    Self.strangers.first { !Self.schema.accepts($0, p.schema) }, "\(d).\(p.name) takes anything")
                var o = Self.minimal(d)
                o[p.name] = wrong
                do throws(JSONDecodingError) {
                    try d.decode(.object(o))
                    Issue.record("\(d) ignores its documented param \"\(p.name)\"")
                } catch {
                    #expect(Self.names(error, p.name), "\(d).\(p.name): \(error)")
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    /// The limits the decoders check are the schema's: the policy's ranges, the battery's.
    @Test(arguments: [
        ("os/setPolicy", "refreshBudgetSecs", [0, 0.000000001, 31_536_000, 31_536_000.5] as [Double]),
        ("os/setPolicy", "watchdogGraceSecs", [-1, 0, 31_536_000, 31_536_001]),
        ("os/setPolicy", "energyBudgetLaunches", [0, 1, 100_000, 100_001, 2.5]),
        ("os/setPolicy", "refreshEarlyExpiryChance", [-0.1, 0, 1, 1.1]),
        ("os/setConditions", "batteryLevel", [-0.1, 0, 1, 1.1]),
    ])
    func rangesAgree(method: String, member: String, values: [Double]) throws {
        let decoder = try #require(Self.decoders.first { $0.method == method && $0.os == .ios })
        let schema = try #require(Self.params(decoder).first { $0.name == member }?.schema)
        for v in values {
            let value = JSONValue.number(JSONNumber(v))
            var accepted = true
            do throws(JSONDecodingError) { try decoder.decode([member: value]) } catch { accepted = false }
            #expect(accepted == Self.schema.accepts(value, schema), "\(method) \(member): \(value)")
        }
    }
}
