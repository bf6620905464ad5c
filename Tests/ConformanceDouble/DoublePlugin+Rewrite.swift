import HostProtocol

/// How the double writes what the engine answers (see ``DoublePlugin``); times in
/// `at` and `now` are written with a decimal point (`28.0`).
extension DoublePlugin {
    /// One message, rewritten.
    func rewrite(_ message: JSONValue) -> JSONValue {
        guard case .object(var o) = message else { return message }
        if o["id"] == nil, let method = o["method"]?.stringValue, case .object(var params) = o["params"] ?? .null {
            noteTime(event: method, params)
            params["at"] = Self.decimal(params["at"] ?? now)
            params["seq"] = .number(nextSeq())
            o["params"] = .object(params)
            return .object(o)
        }
        if case .object(var error) = o["error"] {
            let code = error["code"]?.int64Value
            if code == -32600 { o["id"] = .null }
            error["message"] = .string("double: " + (error["message"]?.stringValue ?? ""))
            if code != -32000, code != -32001 { error["data"] = ["double": true] }
            o["error"] = .object(error)
        }
        if case .object(var result) = o["result"] {
            if let t = result["now"] {
                now = t
                result["now"] = Self.decimal(t)
            }
            if let t = result["at"] {
                now = t
                result["at"] = Self.decimal(t)
            }
            if case .array(let registered) = result["registered"], result["counters"] != nil {
                var byIdentifier = JSONObject()
                for r in registered {
                    if let id = r["identifier"]?.stringValue { byIdentifier[id] = r["kind"] ?? .null }
                }
                result["registered"] = .object(byIdentifier)
            }
            result["x-double"] = true
            o["result"] = .object(result)
        }
        return .object(o)
    }

    /// A whole number written with a decimal point (`28` as `28.0`): the same JSON number.
    static func decimal(_ value: JSONValue) -> JSONValue {
        guard case .number(let n) = value, !n.literal.contains("."), !n.literal.contains("e"),
            let v = try? JSONParser.parse(Array((n.literal + ".0").utf8))
        else { return value }
        return v
    }

    /// Events carry the time where they have it: `at`, or a fired timer's deadline.
    private func noteTime(event: String, _ params: JSONObject) {
        if let at = params["at"] { now = at }
        if event == SafetyTimerEvent.name, params["state"] == "fired", let deadline = params["deadline"] {
            now = deadline
        }
    }
}
