import HostProtocol
import Testing

/// The OpenRPC document lists exactly the members the declarations read and write:
/// each typed params, result and event type's ``JSONShape`` (recorded from its
/// `Codable` declaration) against the document's params, or its result's or event's
/// schema, nested objects included. A member added to a type and not to the
/// document (or the reverse) fails here.
@Suite("OpenRPC document: the members the declarations read")
struct OpenRPCShapeTests {
    /// A method or event with its declared types.
    struct Declared: CustomStringConvertible, Sendable {
        let name: String
        let params: JSONShape
        let result: JSONShape?
        let os: OSMode
        /// One type for several events (``TaskEventParams``): each documents a subset.
        var isShared = false
        var description: String { "\(name) (--os \(os.rawValue))" }

        init<M: RPCMethod>(_: M.Type, os: OSMode = .manual) where M.Params: Decodable, M.Result: Decodable {
            name = M.name
            params = JSONShape.of(M.Params.self)
            result = JSONShape.of(M.Result.self)
            self.os = os
        }

        init<M: RPCMethod, P: Decodable>(_: M.Type, os: OSMode, params: P.Type) where M.Result: Decodable {
            name = M.name
            self.params = JSONShape.of(P.self)
            result = JSONShape.of(M.Result.self)
            self.os = os
        }

        init<E: RPCEvent>(event _: E.Type) where E.Params: Decodable {
            name = E.name
            params = JSONShape.of(E.Params.self)
            result = nil
            os = .ios
            isShared = E.Params.self == TaskEventParams.self
        }
    }

    /// Every method and event whose types are declared with `Codable`.
    static let declared: [Declared] = [
        Declared(StartKeepalive.self), Declared(WaitForCancel.self), Declared(CompleteBgTask.self),
        Declared(StopKeepalive.self), Declared(CancelCancelListener.self), Declared(OSLaunch.self),
        Declared(OSExpire.self), Declared(OSAdvanceTime.self), Declared(OSPendingTaskRequests.self),
        Declared(OSSetConditions.self), Declared(OSSubmit.self), Declared(Initialize.self), Declared(Shutdown.self),
        Declared(PluginReset.self), Declared(PluginStateMethod.self), Declared(PluginStateMethod.self, os: .ios),
        Declared(OSSetConditions.self, os: .ios, params: OSSetConditions.IOSParams.self),
        Declared(event: RequestSubmittedEvent.self), Declared(event: SubmitFailedEvent.self),
        Declared(event: RequestCancelledEvent.self), Declared(event: TaskLaunchedEvent.self),
        Declared(event: TaskExpiredEvent.self), Declared(event: TaskCompletedEvent.self),
        Declared(event: ViolationEvent.self), Declared(event: SafetyTimerEvent.self),
        Declared(OSTerminate.self, os: .ios), Declared(OSOpenApp.self, os: .ios), Declared(OSExplain.self, os: .ios),
        Declared(event: AppLaunchedEvent.self), Declared(event: AppTerminatedEvent.self),
        Declared(event: LaunchDeferredEvent.self),
    ]

    static let schema = JSONSchema(document: OpenRPCDocument.value)

    /// `schema` with `$ref`s followed and a nullable `anyOf` reduced to its object.
    static func resolved(_ schema: JSONValue) -> JSONValue {
        if let target = schema["$ref"]?.stringValue.flatMap(Self.schema.resolve) { return resolved(target) }
        if let object = schema["anyOf"]?.arrayValue?.first(where: { resolved($0)["properties"] != nil }) {
            return resolved(object)
        }
        return schema
    }

    /// The differences between a shape and an object schema, nested objects included.
    static func differences(
        _ shape: JSONShape, _ schema: JSONValue, at path: String, writing: Bool, shared: Bool = false
    ) -> [String] {
        let schema = resolved(schema)
        guard let properties = schema["properties"]?.objectValue else {
            if let items = schema["items"], let element = shape.elements.first {
                return differences(element, items, at: path + "[]", writing: writing)
            }
            return shape.members.isEmpty ? [] : ["\(path): members \(shape.members.keys.sorted()), schema has none"]
        }
        var out: [String] = []
        let declared = Set(shape.members.keys)
        let documented = Set(properties.keys)
        if shared ? !documented.isSubset(of: declared) : declared != documented {
            out.append(
                "\(path): declared \(declared.subtracting(documented).sorted()) undocumented, "
                    + "documented \(documented.subtracting(declared).sorted()) undeclared")
        }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let declaredRequired = Set(
            shape.members.filter { writing ? $0.value.isAlwaysWritten : $0.value.isRequired }.keys)
        if shared ? !declaredRequired.isSubset(of: required) : declaredRequired != required {
            out.append("\(path): required \(declaredRequired.sorted()) declared, \(required.sorted()) documented")
        }
        for (key, member) in shape.members {
            if let nested = member.shape, let s = properties[key] {
                out += differences(nested, s, at: path + "." + key, writing: writing)
            }
        }
        return out
    }

    @Test("params: the declared members are the documented params", arguments: declared)
    func params(_ d: Declared) throws {
        let method = try #require(OpenRPCDocument.method(named: d.name))
        var documented = JSONObject()
        var required: [JSONValue] = []
        for p in method["params"]?.arrayValue ?? [] {
            guard let name = p["name"]?.stringValue, let schema = p["schema"] else { continue }
            if d.os == .manual, p["x-os"] == "ios" { continue }
            documented[name] = schema
            if p["required"] == true { required.append(.string(name)) }
        }
        let asSchema: JSONValue = ["type": "object", "properties": .object(documented), "required": .array(required)]
        // Event params are written by the plugin; method params are read by it.
        let isEvent = method["x-notification"] == true
        #expect(Self.differences(d.params, asSchema, at: d.name, writing: isEvent, shared: d.isShared) == [])
    }

    @Test("results: the declared members are the result schema's properties", arguments: declared)
    func results(_ d: Declared) throws {
        guard let result = d.result else { return }
        let method = try #require(OpenRPCDocument.method(named: d.name))
        let schema = try #require(method["result"]?["schema"])
        #expect(Self.differences(result, schema, at: d.name + " result", writing: true) == [])
    }

    @Test("the recorder sees required, optional, always-written and nested members")
    func recorder() {
        let launch = JSONShape.of(OSLaunch.Result.self)
        #expect(Set(launch.members.keys) == ["identifier", "kind", "at"])
        #expect(launch.members["kind"]?.expected == "one of refresh, processing")
        let info = JSONShape.of(TaskRequestInfo.self)
        #expect(info.members["earliestBeginDate"]?.isRequired == false)
        #expect(info.members["earliestBeginDate"]?.isAlwaysWritten == true)
        let conditions = JSONShape.of(Conditions.self)
        #expect(conditions.members["batteryLevel"]?.isRequired == false)
        #expect(conditions.members["autoLaunch"]?.isRequired == true)
        let initialize = JSONShape.of(Initialize.Result.self)
        #expect(Set(initialize.members["serverInfo"]?.shape?.members.keys ?? [:].keys) == ["name", "version"])
        #expect(JSONShape.of(TaskRequestList.self).elements.first?.members.count == 5)
        #expect(JSONShape.of(StartKeepalive.Params.self).members.count == 8)
    }
}
