/// Builders for the exact JSON lines the tests send and expect.
///
/// Output lines have sorted keys and compact JSON, so expectations are written as
/// full strings. Times are given as the decimal text the plugin writes ("900",
/// "27.999999999").

/// The default bundle's task identifiers.
package let refreshID = "com.example.app.bg-refresh"
package let processingID = "com.example.app.bg-processing"

// MARK: - Input

/// A request line; `params` is raw JSON.
package func req(_ id: Int, _ method: String, _ params: String? = nil) -> String {
    req(rawID: "\(id)", method, params)
}

/// A request line whose id is raw JSON (`"7"`, `"\"a\""`, `"null"`, `"1.5"`).
package func req(rawID id: String, _ method: String, _ params: String? = nil) -> String {
    let p = params.map { #","params":\#($0)"# } ?? ""
    return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(p)}"#
}

/// A notification line (no id).
package func note(_ method: String, _ params: String? = nil) -> String {
    let p = params.map { #","params":\#($0)"# } ?? ""
    return #"{"jsonrpc":"2.0","method":"\#(method)"\#(p)}"#
}

package func launch(_ id: Int, _ identifier: String) -> String {
    req(id, "os/launch", #"{"identifier":"\#(identifier)"}"#)
}
package func expire(_ id: Int, _ identifier: String) -> String {
    req(id, "os/expire", #"{"identifier":"\#(identifier)"}"#)
}
package func advance(_ id: Int, _ seconds: String) -> String { req(id, "os/advanceTime", #"{"seconds":\#(seconds)}"#) }
package func state(_ id: Int) -> String { req(id, "plugin/state") }
package func initialize(_ id: Int, events: Bool) -> String {
    req(id, "initialize", #"{"capabilities":{"events":\#(events)}}"#)
}
package func conditions(_ id: Int, _ params: String) -> String { req(id, "os/setConditions", params) }

// MARK: - Replies

/// `{"id":N,"jsonrpc":"2.0","result":R}`.
package func ok(_ id: Int, _ result: String = "null") -> String {
    #"{"id":\#(id),"jsonrpc":"2.0","result":\#(result)}"#
}

/// A -32000 rejection with `data.reason`.
package func rejected(_ id: Int, _ reason: String) -> String {
    #"{"error":{"code":-32000,"data":{"reason":"\#(reason)"},"message":"invoke rejected: \#(reason)"},"id":\#(id),"#
        + #""jsonrpc":"2.0"}"#
}

/// An error reply; `id` is raw JSON (`"null"`, `"7"`, `"\"a\""`).
package func failure(_ id: String, _ code: Int, _ message: String, data: String? = nil) -> String {
    let d = data.map { #","data":\#($0)"# } ?? ""
    return #"{"error":{"code":\#(code)\#(d),"message":"\#(message)"},"id":\#(id),"jsonrpc":"2.0"}"#
}

package func failure(_ id: Int, _ code: Int, _ message: String, data: String? = nil) -> String {
    failure("\(id)", code, message, data: data)
}

/// `os/launch`'s result.
package func launched(_ id: Int, _ identifier: String, at: String) -> String {
    ok(id, #"{"at":\#(at),"identifier":"\#(identifier)","kind":"\#(kindOf(identifier))"}"#)
}

/// `os/advanceTime`'s result.
package func now(_ id: Int, _ now: String) -> String { ok(id, #"{"now":\#(now)}"#) }

package func kindOf(_ identifier: String) -> String { identifier.hasSuffix("processing") ? "processing" : "refresh" }

/// A task request as `os/pendingTaskRequests` and `os/requestSubmitted` show it.
package func requestJSON(
    _ identifier: String, _ earliest: String, power: Bool = false, network: Bool = false, kind: String? = nil
) -> String {
    #"{"earliestBeginDate":\#(earliest),"identifier":"\#(identifier)","kind":"\#(kind ?? kindOf(identifier))","#
        + #""requiresExternalPower":\#(power),"requiresNetworkConnectivity":\#(network)}"#
}

// MARK: - Events

package func event(_ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#
}

package func evSubmitted(_ identifier: String, _ earliest: String, power: Bool = false, network: Bool = false) -> String
{
    event("os/requestSubmitted", requestJSON(identifier, earliest, power: power, network: network))
}

/// The two `os/requestSubmitted` events of one schedule-next.
package func evScheduled(_ refreshAt: String, _ processingAt: String? = nil, power: Bool = false, network: Bool = false)
    -> [String]
{
    [
        evSubmitted(refreshID, refreshAt),
        evSubmitted(processingID, processingAt ?? refreshAt, power: power, network: network),
    ]
}

package func evSubmitFailed(_ identifier: String, _ error: String) -> String {
    event("os/submitFailed", #"{"error":"\#(error)","identifier":"\#(identifier)"}"#)
}

package func evCancelled(_ identifier: String) -> String {
    event("os/requestCancelled", #"{"identifier":"\#(identifier)"}"#)
}

package func evLaunched(_ identifier: String, at: String) -> String {
    event("os/taskLaunched", #"{"at":\#(at),"identifier":"\#(identifier)","kind":"\#(kindOf(identifier))"}"#)
}

package func evExpired(_ identifier: String, at: String) -> String {
    event("os/taskExpired", #"{"at":\#(at),"identifier":"\#(identifier)"}"#)
}

package func evCompleted(_ identifier: String, _ success: Bool, at: String) -> String {
    event("os/taskCompleted", #"{"at":\#(at),"identifier":"\#(identifier)","success":\#(success)}"#)
}

package func evTimer(_ state: String, _ deadline: String) -> String {
    event("plugin/safetyTimer", #"{"deadline":\#(deadline),"state":"\#(state)"}"#)
}

package func evViolation(_ rule: String, _ detail: String) -> String {
    event("os/violation", #"{"detail":"\#(detail)","rule":"\#(rule)"}"#)
}

/// The result part of a response line (for comparing two `plugin/state` answers).
package func resultPart(_ line: String) -> Substring? {
    line.range(of: #","result":"#).map { line[$0.upperBound...] }
}
