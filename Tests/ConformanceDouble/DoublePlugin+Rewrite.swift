import HostProtocol

/// How the double writes what the engine answers (see ``DoublePlugin``); times in
/// `at` and `now` (and an event's `deadline` and `earliestBeginDate`) are written as
/// serde_json writes an `f64` (`28.0`, `6e-6`, `1e16`).
extension DoublePlugin {
    /// One message, rewritten.
    func rewrite(_ message: JSONValue) -> JSONValue {
        guard case .object(var o) = message else { return message }
        if o["id"] == nil, let method = o["method"]?.stringValue, case .object(var params) = o["params"] ?? .null {
            noteTime(event: method, params)
            params["at"] = Self.decimal(params["at"] ?? now)
            for key in ["deadline", "earliestBeginDate"] where params[key] != nil {
                params[key] = Self.decimal(params[key] ?? .null)
            }
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

    /// A number as Rust's serde_json writes an `f64` (``SerdeNumberText``): `28` as
    /// `28.0`, `0.000006` as `6e-6`, `1e+16` as `1e16`: the same JSON number.
    static func decimal(_ value: JSONValue) -> JSONValue {
        guard case .number(let n) = value, let d = n.doubleValue, let v = JSONNumber(literal: SerdeNumberText.text(d))
        else { return value }
        return .number(v)
    }

    /// Events carry the time where they have it: `at`, or a fired timer's deadline.
    private func noteTime(event: String, _ params: JSONObject) {
        if let at = params["at"] { now = at }
        if event == SafetyTimerEvent.name, params["state"] == "fired", let deadline = params["deadline"] {
            now = deadline
        }
    }
}
