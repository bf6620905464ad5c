import HostProtocol

/// Validates every frame a plugin writes against the OpenRPC document
/// (`OpenRPCDocument`, `docs/openrpc.json`): the JSON-RPC envelope, a result against
/// its method's result schema, an error's data against its code's `x-data-schema`
/// (and an application error code against the method's `errors`), an event's params
/// against the event's `x-params-schema`.
///
/// It learns which method a response answers from the requests sent (``noteSent(_:)``),
/// and so also catches a second response to one request (JSON-RPC: at most one);
/// a response to no known request (id `null`, or bytes the suite sent raw) is checked
/// as a generic response. Notifications of methods the document does not name are
/// allowed (a reader ignores them) and only checked as notifications.
struct FrameValidator {
    private static let document = OpenRPCDocument.value
    private static let schema = JSONSchema(document: document)
    private static let methods: [String: JSONValue] = Dictionary(
        (document["methods"]?.arrayValue ?? []).compactMap { m in m["name"]?.stringValue.map { ($0, m) } },
        uniquingKeysWith: { a, _ in a })
    /// The contract's application error codes; the standard codes apply to every method.
    private static let applicationCodes: Set<Int64> = [-32000, -32001, -32002]

    /// Methods of the requests sent and not yet answered, by id (JSON text), oldest first.
    private var outstanding: [String: [String]] = [:]
    /// Every id (JSON text) a request was sent with: a response to one of them with
    /// nothing outstanding is a second answer to a request.
    private var sentIDs: Set<String> = []
    /// How many frames (batch replies count once per response) were validated.
    private(set) var validated = 0

    /// Notes the requests in a JSON text sent to the plugin.
    mutating func noteSent(_ value: JSONValue) {
        for m in value.arrayValue ?? [value] {
            guard let id = m["id"], let method = m["method"]?.stringValue else { continue }
            outstanding[id.description, default: []].append(method)
            sentIDs.insert(id.description)
        }
    }

    /// Every way a frame fails the document; empty when it conforms.
    mutating func violations(of frame: JSONValue) -> [String] {
        if case .array(let items) = frame {
            var found = Self.check(frame, "#/components/schemas/BatchResponse", "the batch reply")
            for (i, item) in items.enumerated() { found += response(item, label: "batch item \(i + 1)") }
            return found
        }
        if frame["method"] != nil, frame["id"] == nil { return notification(frame) }
        return response(frame, label: "the response")
    }

    private mutating func notification(_ frame: JSONValue) -> [String] {
        validated += 1
        var found = Self.check(frame, "#/components/schemas/Notification", "the notification")
        if let name = frame["method"]?.stringValue, let event = Self.methods[name],
            let params = event["x-params-schema"]
        {
            found += Self.check(frame["params"] ?? .null, params, "\(name)'s params")
        }
        return found
    }

    private mutating func response(_ frame: JSONValue, label: String) -> [String] {
        validated += 1
        var found = Self.check(frame, "#/components/schemas/Response", label)
        let code = frame["error"]?["code"]?.int64Value
        if let id = frame["id"], !id.isNull, sentIDs.contains(id.description), outstanding[id.description] == nil {
            found.append("\(label): a second answer to request \(id) (JSON-RPC: one response per request)")
        }
        let method = answered(id: frame["id"], newest: code == -32600)
        if let result = frame["result"], let method, let schema = Self.methods[method]?["result"]?["schema"] {
            found += Self.check(result, schema, "\(method)'s result")
        }
        if let code, Self.applicationCodes.contains(code) {
            let entries = OpenRPCDocument.errorEntries(code: Int(code))
            if let method, let listed = Self.methods[method] {
                let codes = (listed["errors"]?.arrayValue ?? []).compactMap { e in
                    (e["$ref"]?.stringValue.flatMap(Self.schema.resolve) ?? e)["code"]?.int64Value
                }
                if !codes.contains(code) { found.append("\(label): \(method) does not list error \(code)") }
            }
            if let dataSchema = entries.first?["x-data-schema"] {
                found += Self.check(frame["error"]?["data"] ?? .null, dataSchema, "error \(code)'s data")
            }
        }
        return found
    }

    /// The method of the request a response with `id` answers: the oldest outstanding
    /// one with that id, or the newest for -32600 (a duplicate id refused at once).
    private mutating func answered(id: JSONValue?, newest: Bool) -> String? {
        guard let id, !id.isNull, var queue = outstanding[id.description], !queue.isEmpty else { return nil }
        let method = newest ? queue.removeLast() : queue.removeFirst()
        outstanding[id.description] = queue.isEmpty ? nil : queue
        return method
    }

    private static func check(_ value: JSONValue, _ reference: String, _ label: String) -> [String] {
        check(value, ["$ref": .string(reference)], label)
    }

    private static func check(_ value: JSONValue, _ schema: JSONValue, _ label: String) -> [String] {
        Self.schema.validate(value, against: schema).map { "\(label): \($0)" }
    }
}
