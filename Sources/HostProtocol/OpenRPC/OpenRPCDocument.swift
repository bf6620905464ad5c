/// The protocol as an OpenRPC 1.3 document: every method of ``MethodRegistry`` with
/// the JSON Schema of its params, result and errors, and every event as a
/// notification method (`x-notification: true`, plugin to host).
///
/// Its params, result and event schemas are derived from the declarations
/// (``JSONShape`` and ``JSONSchemaDescribed``, `OpenRPCDocument+Derived.swift`); it is
/// compiled into every binary that links `HostProtocol`: the plugin answers `rpc.discover` with
/// it (a copied binary needs no resource file), and the conformance suite
/// validates every frame it sees against it. `docs/openrpc.json` is this value,
/// indented (`plugin-host conformance --openrpc`); a test keeps the two equal.
///
/// Schemas never forbid extra members: the contract lets a plugin add members to
/// results and event params, and a reader ignores those it does not know.
///
/// ```swift
/// let schema = JSONSchema(document: OpenRPCDocument.value)
/// let launch = OpenRPCDocument.method(named: "os/launch")!
/// schema.accepts(["identifier": "a.bg-refresh", "kind": "refresh", "at": 0], launch["result"]!["schema"]!)  // true
/// ```
public enum OpenRPCDocument {
    /// The OpenRPC specification version the document follows.
    public static let openRPCVersion = "1.3.2"

    /// The whole document.
    public static let value: JSONValue = [
        "openrpc": .string(openRPCVersion),
        "info": info,
        "methods": .array(methods + events),
        "components": ["schemas": .object(schemas), "errors": .object(errors)],
        "externalDocs": [
            "description": "The binding contract: wire protocol, plugin rules and command lines",
            "url": "../shared/CONTRACT.md",
        ],
    ]

    /// The document as `docs/openrpc.json` holds it: indented, keys sorted.
    public static var prettyText: String { JSONWriter.pretty(value) }

    /// The method or event described under `name`.
    public static func method(named name: String) -> JSONValue? {
        value["methods"]?.arrayValue?.first { $0["name"]?.stringValue == name }
    }

    /// The names of the methods the host calls (not the events).
    public static var methodNames: [String] {
        (value["methods"]?.arrayValue ?? []).filter { $0["x-notification"] != .bool(true) }.compactMap {
            $0["name"]?.stringValue
        }
    }

    /// The names of the events (notification methods, plugin to host).
    public static var eventNames: [String] {
        (value["methods"]?.arrayValue ?? []).filter { $0["x-notification"] == .bool(true) }.compactMap {
            $0["name"]?.stringValue
        }
    }

    private static let info: JSONValue = [
        "title": "background-service-plugin",
        "version": "1",
        "description": .string(
            "The JSON-RPC 2.0 protocol between a host (the Rust side of tauri-plugin-background-service) and the "
                + "background-service-plugin process (a port of the iOS BackgroundServicePlugin on an emulated "
                + "BGTaskScheduler). params are by name; unknown members in params are ignored; a plugin may add "
                + "members to results and event params. The standard JSON-RPC errors (-32700, -32600, -32601, -32602, "
                + "-32603) apply to every method and are not repeated per method. Methods marked x-extension are not "
                + "in the contract: a plugin may answer them with -32601. Methods marked x-notification are events "
                + "the plugin sends (x-direction plugin-to-host) after initialize with capabilities.events, or with "
                + "--events. Times are seconds on the plugin's clock (the virtual clock starts at 0)."),
    ]

    // MARK: Building blocks

    /// `{"$ref": "#/components/schemas/NAME"}`.
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    /// `{"$ref": "#/components/errors/NAME"}`.
    static func errorRef(_ name: String) -> JSONValue { ["$ref": .string("#/components/errors/\(name)")] }

    /// An enum schema of a Swift enum's raw values.
    static func enumSchema<E: CaseIterable & RawRepresentable>(_: E.Type, _ description: String) -> JSONValue
    where E.RawValue == String {
        ["enum": .array(E.allCases.map { .string($0.rawValue) }), "description": .string(description)]
    }

    /// An object schema: `properties`, the required names, a description.
    static func object(_ properties: [String: JSONValue], required: [String], _ description: String) -> JSONValue {
        [
            "type": "object", "properties": .object(properties),
            "required": .array(required.sorted().map { .string($0) }), "description": .string(description),
        ]
    }

    /// A content descriptor (a named param or a result).
    static func descriptor(_ name: String, _ schema: JSONValue, required: Bool = false, _ description: String)
        -> JSONValue
    {
        var d: JSONObject = ["name": .string(name), "schema": schema, "description": .string(description)]
        if required { d["required"] = true }
        return .object(d)
    }

    /// A method object for a typed method.
    static func method<M: RPCMethod>(
        _: M.Type, _ summary: String, params: [JSONValue] = [], result: JSONValue, errors: [JSONValue] = [],
        isExtension: Bool = false, description: String? = nil
    ) -> JSONValue {
        var m: JSONObject = [
            "name": .string(M.name), "summary": .string(summary), "paramStructure": "by-name",
            "params": .array(params), "result": result, "x-kind": .string(M.kind.rawValue),
        ]
        if !errors.isEmpty { m["errors"] = .array(errors) }
        if isExtension { m["x-extension"] = true }
        if let description { m["description"] = .string(description) }
        return .object(m)
    }

    /// A `result: null` descriptor.
    static let nullResult = descriptor("result", ["type": "null"], "null: the method only resolves")
}
