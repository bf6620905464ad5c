/// Builders for the exact JSON lines the tests send and expect.
///
/// Output lines have sorted keys and compact JSON, so expectations are written as
/// full strings. Times are given as the decimal text the plugin writes ("900",
/// "27.999999999").

/// The default bundle's task identifiers.
let refreshID = "com.example.app.bg-refresh"
let processingID = "com.example.app.bg-processing"

// MARK: - Input

/// A request line; `params` is raw JSON.
func req(_ id: Int, _ method: String, _ params: String? = nil) -> String {
    let p = params.map { #","params":\#($0)"# } ?? ""
    return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(p)}"#
}

/// A notification line (no id).
func note(_ method: String, _ params: String? = nil) -> String {
    let p = params.map { #","params":\#($0)"# } ?? ""
    return #"{"jsonrpc":"2.0","method":"\#(method)"\#(p)}"#
}

func launch(_ id: Int, _ identifier: String) -> String { req(id, "os/launch", #"{"identifier":"\#(identifier)"}"#) }
func expire(_ id: Int, _ identifier: String) -> String { req(id, "os/expire", #"{"identifier":"\#(identifier)"}"#) }
func advance(_ id: Int, _ seconds: String) -> String { req(id, "os/advanceTime", #"{"seconds":\#(seconds)}"#) }
func state(_ id: Int) -> String { req(id, "plugin/state") }
func initialize(_ id: Int, events: Bool) -> String { req(id, "initialize", #"{"capabilities":{"events":\#(events)}}"#) }
func conditions(_ id: Int, _ params: String) -> String { req(id, "os/setConditions", params) }

// MARK: - Replies

/// `{"id":N,"jsonrpc":"2.0","result":R}`.
func ok(_ id: Int, _ result: String = "null") -> String { #"{"id":\#(id),"jsonrpc":"2.0","result":\#(result)}"# }

/// A -32000 rejection with `data.reason`.
func rejected(_ id: Int, _ reason: String) -> String {
    #"{"error":{"code":-32000,"data":{"reason":"\#(reason)"},"message":"invoke rejected: \#(reason)"},"id":\#(id),"#
        + #""jsonrpc":"2.0"}"#
}

/// An error reply; `id` is raw JSON (`"null"`, `"7"`, `"\"a\""`).
func failure(_ id: String, _ code: Int, _ message: String, data: String? = nil) -> String {
    let d = data.map { #","data":\#($0)"# } ?? ""
    return #"{"error":{"code":\#(code)\#(d),"message":"\#(message)"},"id":\#(id),"jsonrpc":"2.0"}"#
}

func failure(_ id: Int, _ code: Int, _ message: String, data: String? = nil) -> String {
    failure("\(id)", code, message, data: data)
}

/// `os/launch`'s result.
func launched(_ id: Int, _ identifier: String, at: String) -> String {
    ok(id, #"{"at":\#(at),"identifier":"\#(identifier)","kind":"\#(kindOf(identifier))"}"#)
}

/// `os/advanceTime`'s result.
func now(_ id: Int, _ now: String) -> String { ok(id, #"{"now":\#(now)}"#) }

func kindOf(_ identifier: String) -> String { identifier.hasSuffix("processing") ? "processing" : "refresh" }

/// A task request as `os/pendingTaskRequests` and `os/requestSubmitted` show it.
func requestJSON(
    _ identifier: String, _ earliest: String, power: Bool = false, network: Bool = false, kind: String? = nil
) -> String {
    #"{"earliestBeginDate":\#(earliest),"identifier":"\#(identifier)","kind":"\#(kind ?? kindOf(identifier))","#
        + #""requiresExternalPower":\#(power),"requiresNetworkConnectivity":\#(network)}"#
}

// MARK: - Events

func event(_ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#
}

func evSubmitted(_ identifier: String, _ earliest: String, power: Bool = false, network: Bool = false) -> String {
    event("os/requestSubmitted", requestJSON(identifier, earliest, power: power, network: network))
}

/// The two `os/requestSubmitted` events of one schedule-next.
func evScheduled(_ refreshAt: String, _ processingAt: String? = nil, power: Bool = false, network: Bool = false)
    -> [String]
{
    [
        evSubmitted(refreshID, refreshAt),
        evSubmitted(processingID, processingAt ?? refreshAt, power: power, network: network),
    ]
}

func evSubmitFailed(_ identifier: String, _ error: String) -> String {
    event("os/submitFailed", #"{"error":"\#(error)","identifier":"\#(identifier)"}"#)
}

func evCancelled(_ identifier: String) -> String { event("os/requestCancelled", #"{"identifier":"\#(identifier)"}"#) }

func evLaunched(_ identifier: String, at: String) -> String {
    event("os/taskLaunched", #"{"at":\#(at),"identifier":"\#(identifier)","kind":"\#(kindOf(identifier))"}"#)
}

func evExpired(_ identifier: String, at: String) -> String {
    event("os/taskExpired", #"{"at":\#(at),"identifier":"\#(identifier)"}"#)
}

func evCompleted(_ identifier: String, _ success: Bool, at: String) -> String {
    event("os/taskCompleted", #"{"at":\#(at),"identifier":"\#(identifier)","success":\#(success)}"#)
}

func evTimer(_ state: String, _ deadline: String) -> String {
    event("plugin/safetyTimer", #"{"deadline":\#(deadline),"state":"\#(state)"}"#)
}

func evViolation(_ rule: String, _ detail: String) -> String {
    event("os/violation", #"{"detail":"\#(detail)","rule":"\#(rule)"}"#)
}

/// The result part of a response line (for comparing two `plugin/state` answers).
func resultPart(_ line: String) -> Substring? {
    line.range(of: #","result":"#).map { line[$0.upperBound...] }
}
