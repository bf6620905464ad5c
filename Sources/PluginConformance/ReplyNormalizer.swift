import HostProtocol

/// Puts a reply frame in the form the catalogue's expectations are written in,
/// so that only what the contract fixes is compared.
///
/// - `error.message` is human text: replaced by `"*"`. `error.data` is kept for
///   -32000 and -32001 (the contract fixes it there) and dropped for other codes.
/// - `os/violation`'s `detail` is human text: replaced by `"*"`.
/// - Numbers other than ids are written in one canonical form (`900.0` → `900`).
/// - The result of `plugin/state` keeps the contract's members only (extensions
///   such as `counters.dropped` are dropped); its `registered` and
///   `pendingRequests` are sorted by identifier (the contract fixes no order there).
/// - The result of `initialize`: `serverInfo.name` and `.version` (free strings)
///   are replaced by `"*"`.
///
/// The normalized frame is written compact with sorted keys, as the plugin writes.
struct ReplyNormalizer: Sendable {
    /// Ids (as JSON text) of the `plugin/state` requests sent.
    var stateIDs: Set<String> = []
    /// Ids (as JSON text) of the `initialize` requests sent.
    var initializeIDs: Set<String> = []

    /// The members of a `plugin/state` result the contract defines.
    static let stateMembers: Set<String> = [
        "now", "clock", "profile", "activeTask", "pendingCancelInvoke", "safetyTimer", "config",
        "pendingRequests", "registered", "conditions", "counters",
    ]
    /// The members of `plugin/state`'s `counters` the contract defines.
    static let counterMembers: Set<String> = ["launched", "completed", "expired", "violations"]
    /// The members of `plugin/state`'s `config` the contract defines.
    static let configMembers: Set<String> = [
        "iosSafetyTimeoutSecs", "iosProcessingSafetyTimeoutSecs", "iosEarliestRefreshBeginMinutes",
        "iosEarliestProcessingBeginMinutes", "iosRequiresExternalPower", "iosRequiresNetworkConnectivity",
    ]

    /// Notes the ids of requests whose results get special treatment.
    mutating func noteSent(_ input: ConformanceInput) {
        guard case .json(let text) = input, let value = try? JSONParser.parse(Array(text.utf8)) else { return }
        for message in value.arrayValue ?? [value] {
            guard let id = message["id"], let method = message["method"]?.stringValue else { continue }
            if method == "plugin/state" { stateIDs.insert(id.description) }
            if method == "initialize" { initializeIDs.insert(id.description) }
        }
    }

    /// The normalized text of a frame body, or nil when it is not JSON.
    func normalize(_ body: some Collection<UInt8>) -> String? {
        guard let value = try? JSONParser.parse(Array(body)) else { return nil }
        return normalize(value).description
    }

    /// The normalized value of one frame (a message or a batch reply).
    func normalize(_ value: JSONValue) -> JSONValue {
        if case .array(let elements) = value { return .array(elements.map(normalizeMessage)) }
        return normalizeMessage(value)
    }

    private func normalizeMessage(_ value: JSONValue) -> JSONValue {
        guard case .object(var o) = value else { return canonicalNumbers(value) }
        let idText = o["id"]?.description
        if case .object(var error) = o["error"] {
            if case .string = error["message"] { error["message"] = "*" }
            let code = error["code"]?.int64Value
            if code != -32000, code != -32001 { error["data"] = nil }
            o["error"] = canonicalNumbers(.object(error))
        }
        if let idText, let result = o["result"].flatMap(Self.members) {
            if stateIDs.contains(idText) { o["result"] = canonicalNumbers(.object(Self.contractState(result))) }
            if initializeIDs.contains(idText), case .object(var info) = result["serverInfo"] {
                for key in ["name", "version"] where info[key]?.stringValue != nil { info[key] = "*" }
                var r = result
                r["serverInfo"] = .object(info)
                o["result"] = .object(r)
            }
        }
        if o["id"] == nil, o["method"]?.stringValue == "os/violation", case .object(var params) = o["params"] {
            if case .string = params["detail"] { params["detail"] = "*" }
            o["params"] = .object(params)
        }
        for (key, member) in o where key != "id" && key != "error" {
            o[key] = canonicalNumbers(member)
        }
        return .object(o)
    }

    /// A `plugin/state` result reduced to the contract's members.
    static func contractState(_ state: [String: JSONValue]) -> [String: JSONValue] {
        var s = state.filter { stateMembers.contains($0.key) }
        if let c = s["counters"].flatMap(members) { s["counters"] = .object(c.filter { counterMembers.contains($0.key) }) }
        if let c = s["config"].flatMap(members) { s["config"] = .object(c.filter { configMembers.contains($0.key) }) }
        for key in ["registered", "pendingRequests"] {
            if case .array(let list) = s[key] {
                s[key] = .array(list.sorted { ($0["identifier"]?.description ?? "") < ($1["identifier"]?.description ?? "") })
            }
        }
        return s
    }

    /// An object's members as a dictionary; nil for other values.
    static func members(_ value: JSONValue) -> [String: JSONValue]? {
        guard let object = value.objectValue else { return nil }
        var d: [String: JSONValue] = [:]
        for (key, member) in object { d[key] = member }
        return d
    }

    /// Rewrites every number except the values of `id` and `pendingCancelInvoke`
    /// members (request ids are echoed exactly) in canonical form.
    private func canonicalNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let n):
            guard n.literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let d = n.doubleValue else { return value }
            return .number(d)
        case .array(let a): return .array(a.map(canonicalNumbers))
        case .object(let o):
            var out: [String: JSONValue] = [:]
            for (k, v) in o { out[k] = (k == "id" || k == "pendingCancelInvoke") ? v : canonicalNumbers(v) }
            return .object(out)
        default: return value
        }
    }
}
