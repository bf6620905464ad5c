import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `docs/openrpc.json`: a well-formed OpenRPC 1.3 document that describes exactly the
/// registry's methods and events, with schemas the validator fully understands and
/// that accept what the typed methods write.
@Suite("OpenRPC document")
struct OpenRPCDocumentTests {
    static let docPath = PackageRoot.path("docs/openrpc.json")

    let doc = OpenRPCDocument.value
    var validator: JSONSchema { JSONSchema(document: doc) }

    @Test func requiredTopLevelMembers() throws {
        let version = try #require(doc["openrpc"]?.stringValue)
        let parts = version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil } && version.hasPrefix("1.3."), "\(version)")
        #expect(doc["info"]?["title"]?.stringValue?.isEmpty == false)
        #expect(doc["info"]?["version"]?.stringValue == "1")
        let methods = try #require(doc["methods"]?.arrayValue)
        #expect(methods.count >= 20)
        for m in methods {
            let name = m["name"]?.stringValue ?? "?"
            #expect(!name.isEmpty)
            let params = try #require(m["params"]?.arrayValue, "\(name) has no params array")
            for p in params { #expect(p["name"]?.stringValue != nil && p["schema"] != nil, "\(name): \(p)") }
            #expect(["by-name", "by-position", "either"].contains(m["paramStructure"]?.stringValue ?? "by-name"))
            if let result = m["result"] {
                #expect(result["name"]?.stringValue != nil && result["schema"] != nil, "\(name)")
            } else {
                #expect(m["x-notification"] == true, "\(name): only notifications may lack a result")
            }
            for e in m["errors"]?.arrayValue ?? [] {
                let resolved = e["$ref"]?.stringValue.flatMap(validator.resolve) ?? e
                #expect(resolved["code"]?.int64Value != nil && resolved["message"]?.stringValue != nil, "\(name): \(e)")
            }
        }
        let names = methods.compactMap { $0["name"]?.stringValue }
        #expect(Set(names).count == names.count, "method names must be unique")
    }

    /// Every method and event of the registry (those of `--os ios` included) is described,
    /// and nothing else: the registry-coverage test.
    @Test func describesExactlyTheRegistry() {
        let registry = (MethodRegistry.methods + MethodRegistry.iosMethods).map(\.name)
        #expect(Set(OpenRPCDocument.methodNames) == Set(registry))
        #expect(OpenRPCDocument.methodNames == registry, "the document lists the methods in registry order")
        #expect(OpenRPCDocument.eventNames == MethodRegistry.events + MethodRegistry.iosEvents)
        for entry in MethodRegistry.methods + MethodRegistry.iosMethods {
            let m = OpenRPCDocument.method(named: entry.name)
            #expect((m?["x-extension"] == true) == entry.isExtension, "\(entry.name): x-extension")
            #expect(m?["x-kind"]?.stringValue == entry.kind.rawValue, "\(entry.name): x-kind")
        }
        for name in MethodRegistry.events + MethodRegistry.iosEvents {
            #expect(OpenRPCDocument.method(named: name)?["x-params-schema"] != nil, "\(name) has no params schema")
        }
        let ios = Set(MethodRegistry.iosMethods.map(\.name) + MethodRegistry.iosEvents)
        for name in OpenRPCDocument.methodNames + OpenRPCDocument.eventNames {
            #expect((OpenRPCDocument.method(named: name)?["x-os"] == "ios") == ios.contains(name), "\(name): x-os")
        }
    }

    @Test func everySchemaUsesOnlyKnownKeywordsAndEveryRefResolves() {
        var schemas: [(String, JSONValue)] = (doc["components"]?["schemas"]?.objectValue ?? [:]).map {
            ($0.key, $0.value)
        }
        for m in doc["methods"]?.arrayValue ?? [] {
            let name = m["name"]?.stringValue ?? "?"
            for p in m["params"]?.arrayValue ?? [] { schemas.append(("\(name) param", p["schema"] ?? .null)) }
            if let r = m["result"]?["schema"] { schemas.append(("\(name) result", r)) }
            if let e = m["x-params-schema"] { schemas.append(("\(name) params", e)) }
        }
        for e in doc["components"]?["errors"]?.objectValue?.values ?? [] {
            if let s = e["x-data-schema"] { schemas.append(("error data", s)) }
        }
        #expect(schemas.count > 60)
        for (place, schema) in schemas {
            #expect(
                JSONSchema.unsupportedKeywords(in: schema).isEmpty,
                "\(place): \(JSONSchema.unsupportedKeywords(in: schema))")
        }
        var refs: [String] = []
        func collect(_ v: JSONValue) {
            switch v {
            case .object(let o):
                if let r = o["$ref"]?.stringValue { refs.append(r) }
                o.values.forEach(collect)
            case .array(let a): a.forEach(collect)
            default: break
            }
        }
        collect(doc)
        #expect(refs.count > 40)
        for r in refs { #expect(validator.resolve(r) != nil, "unresolvable \(r)") }
    }

    /// What the typed methods write validates against the document's schemas.
    @Test func typedValuesValidate() throws {
        func result(_ method: String) throws -> JSONValue {
            try #require(OpenRPCDocument.method(named: method)?["result"]?["schema"])
        }
        let request = TaskRequestInfo(
            identifier: "a.bg-processing", kind: .processing, earliestBeginDate: VirtualTime(seconds: 900))
        let state = PluginStateSnapshot(
            now: .zero, clock: .virtual, profile: .seed,
            activeTask: .init(identifier: "a.bg-refresh", kind: .refresh, launchedAt: .zero),
            pendingCancelInvoke: .string("w"),
            safetyTimerDeadline: VirtualTime(seconds: 28), config: .defaults, pendingRequests: [request],
            registered: [.init(identifier: "a.bg-refresh", kind: .refresh)], conditions: .defaults,
            counters: .init(), cancelInvokePending: true, notificationAuthorizationRequests: 1)
        let cases: [(String, JSONValue)] = [
            ("plugin/state", state.json),
            ("os/pendingTaskRequests", TaskRequestList([request]).json),
            ("os/launch", OSLaunch.Result(identifier: "a.bg-refresh", kind: .refresh, at: .zero).json),
            ("os/setConditions", Conditions.defaults.json),
            ("os/submit", request.json),
            ("rpc.discover", doc),
            (
                "initialize",
                Initialize.Result(
                    serverName: "p", serverVersion: "1", bundleIdentifier: "a", refreshIdentifier: "a.bg-refresh",
                    processingIdentifier: "a.bg-processing", clock: .virtual, profile: .strict
                ).json
            ),
            ("startKeepalive", .null),
        ]
        for (method, value) in cases {
            let violations = validator.validate(value, against: try result(method))
            #expect(violations.isEmpty, "\(method): \(violations)")
        }
        let launched = try #require(OpenRPCDocument.method(named: "os/taskLaunched")?["x-params-schema"])
        #expect(validator.accepts(TaskEventParams(identifier: "a", at: .zero, kind: .refresh).json, launched))
        #expect(!validator.accepts(TaskEventParams(identifier: "a", at: .zero).json, launched), "kind is required")
        #expect(
            validator.accepts(["identifier": "a", "at": 0, "kind": "refresh", "seq": 7], launched),
            "extra members allowed")
    }

    /// The open choices of the contract are in the schema: `registered`'s shape.
    @Test func registeredAcceptsEveryReasonableShape() throws {
        let registered = try #require(validator.resolve("#/components/schemas/Registered"))
        #expect(validator.accepts([["identifier": "a", "kind": "refresh"]], registered))
        #expect(validator.accepts(["a", "b"], registered))
        #expect(validator.accepts(["a": "refresh", "b": ["kind": "processing"]], registered))
        #expect(!validator.accepts(["a": "sometimes"], registered))
        #expect(!validator.accepts("a", registered))
    }

    @Test func envelopes() throws {
        let frame = try #require(validator.resolve("#/components/schemas/Frame"))
        #expect(validator.accepts(["jsonrpc": "2.0", "id": 1, "result": .null], frame))
        #expect(validator.accepts(["jsonrpc": "2.0", "id": .null, "error": ["code": -32600, "message": "x"]], frame))
        #expect(validator.accepts([["jsonrpc": "2.0", "id": 1, "result": 2]], frame))
        #expect(validator.accepts(["jsonrpc": "2.0", "method": "os/taskLaunched", "params": [:]], frame))
        #expect(
            !validator.accepts(["jsonrpc": "2.0", "id": 1, "result": 1, "error": ["code": 1, "message": "x"]], frame))
        #expect(!validator.accepts(["jsonrpc": "2.0", "id": 1], frame))
        #expect(!validator.accepts(["jsonrpc": "1.0", "id": 1, "result": 1], frame))
        #expect(!validator.accepts(.array([]), frame))
        #expect(!validator.accepts(["jsonrpc": "2.0", "id": 1, "error": ["code": 1.5, "message": "x"]], frame))
    }

    @Test func errorsCarryTheirCodesAndReasons() {
        #expect(
            OpenRPCDocument.errorEntries(code: -32000).compactMap { $0["data"]?["reason"]?.stringValue }.sorted()
                == RejectReason.allCases.map(\.rawValue).sorted())
        #expect(OpenRPCDocument.errorEntries(code: -32001).count == 1)
        #expect(OpenRPCDocument.errorEntries(code: -32002).count == 1)
        let wait = OpenRPCDocument.method(named: "waitForCancel")?["errors"]?.arrayValue ?? []
        #expect(wait.count == RejectReason.allCases.count)
    }

    /// What `--os ios` adds to existing messages is described: `os/taskExpired`'s `cause`, the
    /// wider `os/setConditions`, and the `data.now` of a bounded `os/advanceTime`'s -32002.
    @Test func iosAdditionsAreDescribed() throws {
        let expired = try #require(OpenRPCDocument.method(named: "os/taskExpired"))
        #expect(expired["x-params-schema"]?["properties"]?["cause"] == ["$ref": "#/components/schemas/ExpirationCause"])
        let cause = expired["params"]?.arrayValue?.first { $0["name"] == "cause" }
        #expect(cause?["x-os"] == "ios" && cause?["required"] == nil)
        #expect(validator.accepts(["identifier": "a", "at": 3, "cause": "budget"], expired["x-params-schema"]!))
        #expect(!validator.accepts(["identifier": "a", "at": 3, "cause": "boredom"], expired["x-params-schema"]!))
        let conditions = OpenRPCDocument.method(named: "os/setConditions")?["params"]?.arrayValue ?? []
        let ios = conditions.filter { $0["x-os"] == "ios" }.compactMap { $0["name"]?.stringValue }
        #expect(Set(ios) == ["batteryLevel", "lowPowerMode", "deviceInUse"])
        let invalidState = try #require(OpenRPCDocument.errorEntries(code: -32002).first?["x-data-schema"])
        #expect(validator.accepts(.null, invalidState) && validator.accepts(["now": 86400.5], invalidState))
        // The contract fixes no other member of -32002's data: a plugin may send its own.
        #expect(validator.accepts(["double": true], invalidState))
        #expect(!validator.accepts(["now": "soon"], invalidState) && !validator.accepts(7, invalidState))
    }

    /// Every shared schema and error is used somewhere (`Frame`, the root a whole frame is
    /// validated against, is used by name).
    @Test func everyComponentIsReferenced() {
        let text = OpenRPCDocument.prettyText
        for kind in ["schemas", "errors"] {
            for name in doc["components"]?[kind]?.objectValue?.keys ?? [] where name != "Frame" {
                #expect(text.contains("\"#/components/\(kind)/\(name)\""), "components.\(kind).\(name) is never used")
            }
        }
    }

    @Test func committedDocumentIsTheGeneratedOne() throws {
        let committed = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        #expect(
            committed == OpenRPCDocument.prettyText,
            "docs/openrpc.json is stale; regenerate it: plugin-host conformance --openrpc > docs/openrpc.json")
        #expect(try JSONParser.parse(Array(committed.utf8)) == doc)
    }

    @Test func prettyTextIsIndentedSortedJSON() throws {
        #expect(
            JSONWriter.pretty(["b": [1, [:]], "a": .array([]), "c": "é\n"])
                == "{\n  \"a\": [],\n  \"b\": [\n    1,\n    {}\n  ],\n  \"c\": \"é\\n\"\n}\n")
        #expect(JSONWriter.pretty(5) == "5\n")
    }
}
