/// The vocabulary the catalogue is written in: requests sent (JSON texts), replies
/// and events expected (``Pattern``s: the members the contract names, `"*"` for
/// free text such as error messages; members not named are allowed).
extension ConformanceCatalogue {
    /// A request id as JSON text: `1`, `"a"`, `null`.
    struct ID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, Sendable {
        /// The id's JSON text.
        let json: String
        /// `null`.
        static let null = ID(json: "null")
        init(json: String) { self.json = json }
        init(integerLiteral value: Int) { json = String(value) }
        init(stringLiteral value: String) { json = "\"\(value)\"" }
    }

    /// The two task kinds, with the default bundle id's identifiers.
    enum Kind: String, Sendable {
        case refresh, processing
        /// `com.example.app.bg-refresh` / `com.example.app.bg-processing`.
        var identifier: String { "\(ConformanceCatalogue.bundleID).bg-\(rawValue)" }
    }

    /// The default `--bundle-id`.
    static let bundleID = "com.example.app"

    // MARK: Sent

    /// A request: `{"jsonrpc":"2.0","id":ID,"method":M,"params":P}`.
    static func request(_ id: ID, _ method: String, _ params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","id":\#(id.json),"method":"\#(method)"\#(params.map { #","params":\#($0)"# } ?? "")}"#
    }

    /// A notification: a request without `id`.
    static func notification(_ method: String, _ params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)"\#(params.map { #","params":\#($0)"# } ?? "")}"#
    }

    /// `{"identifier":...}` for a kind.
    static func identifier(_ kind: Kind) -> String { #"{"identifier":"\#(kind.identifier)"}"# }

    // MARK: Expected replies

    /// A success response.
    static func result(_ id: ID, _ result: String = "null") -> Pattern {
        Pattern(json: #"{"id":\#(id.json),"jsonrpc":"2.0","result":\#(result)}"#)
    }

    /// A success response whose result is a pattern.
    static func result(_ id: ID, _ result: Pattern) -> Pattern {
        Pattern(json: #"{"id":\#(id.json),"jsonrpc":"2.0"}"#).replacing("result", with: result)
    }

    /// An error response (message not compared; `data` only for -32000 and -32001).
    static func failure(_ id: ID, _ code: Int, data: String? = nil) -> Pattern {
        let error = #"{"code":\#(code)\#(data.map { #","data":\#($0)"# } ?? ""),"message":"*"}"#
        return Pattern(json: #"{"error":\#(error),"id":\#(id.json),"jsonrpc":"2.0"}"#)
    }

    /// -32600 for a request whose id could be read: the reply carries that id, or
    /// `null` (JSON-RPC 2.0 allows both for an Invalid Request; the contract is silent).
    static func invalidRequest(_ id: ID) -> Pattern {
        failure(id, -32600).replacing(
            "id",
            with: .oneOf(
                [Pattern(json: id.json), .value(.null)], because: "the request's id, or null (an Invalid Request)"))
    }

    /// A -32000 rejection with `data.reason`.
    static func rejected(_ id: ID, _ reason: String) -> Pattern {
        failure(id, -32000, data: #"{"reason":"\#(reason)"}"#)
    }

    /// A -32001 scheduler error with `data.scheduler`.
    static func schedulerError(_ id: ID, _ kind: String) -> Pattern {
        failure(id, -32001, data: #"{"scheduler":"\#(kind)"}"#)
    }

    /// `{"now":T}`, the result of `os/advanceTime`.
    static func now(_ id: ID, _ t: String) -> Pattern { result(id, #"{"now":\#(t)}"#) }

    /// The result of `os/launch`.
    static func launchResult(_ id: ID, _ kind: Kind, at: String) -> Pattern {
        result(id, #"{"at":\#(at),"identifier":"\#(kind.identifier)","kind":"\#(kind.rawValue)"}"#)
    }

    /// A pending request as `os/pendingTaskRequests` and `os/requestSubmitted` show it.
    static func requestInfo(
        _ kind: Kind, at: String, power: Bool = false, network: Bool = false, identifier: String? = nil
    ) -> String {
        #"{"earliestBeginDate":\#(at),"identifier":"\#(identifier ?? kind.identifier)","kind":"\#(kind.rawValue)","#
            + #""requiresExternalPower":\#(power),"requiresNetworkConnectivity":\#(network)}"#
    }

    /// The result of `os/pendingTaskRequests`.
    static func pending(_ id: ID, _ requests: [String]) -> Pattern {
        result(id, "[" + requests.joined(separator: ",") + "]")
    }

    /// The conditions object (`os/setConditions`'s result).
    static func conditions(
        autoLaunch: Bool = false, status: String = "available", power: Bool = false, network: Bool = true
    ) -> String {
        #"{"autoLaunch":\#(autoLaunch),"backgroundRefreshStatus":"\#(status)","externalPower":\#(power),"#
            + #""networkConnected":\#(network)}"#
    }

    // MARK: Expected events

    /// An event notification.
    static func event(_ method: String, _ params: String) -> Pattern {
        Pattern(json: #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
    }

    /// `os/requestSubmitted`.
    static func submitted(_ kind: Kind, at: String, power: Bool = false, network: Bool = false) -> Pattern {
        event("os/requestSubmitted", requestInfo(kind, at: at, power: power, network: network))
    }

    /// `os/submitFailed`.
    static func submitFailed(_ kind: Kind, _ error: String) -> Pattern {
        event("os/submitFailed", #"{"error":"\#(error)","identifier":"\#(kind.identifier)"}"#)
    }

    /// `os/requestCancelled`.
    static func cancelled(_ kind: Kind) -> Pattern {
        event("os/requestCancelled", #"{"identifier":"\#(kind.identifier)"}"#)
    }

    /// `os/taskLaunched`.
    static func launched(_ kind: Kind, at: String) -> Pattern {
        event("os/taskLaunched", #"{"at":\#(at),"identifier":"\#(kind.identifier)","kind":"\#(kind.rawValue)"}"#)
    }

    /// `os/taskExpired`.
    static func expired(_ kind: Kind, at: String) -> Pattern {
        event("os/taskExpired", #"{"at":\#(at),"identifier":"\#(kind.identifier)"}"#)
    }

    /// `os/taskCompleted`.
    static func completed(_ kind: Kind, success: Bool, at: String) -> Pattern {
        event("os/taskCompleted", #"{"at":\#(at),"identifier":"\#(kind.identifier)","success":\#(success)}"#)
    }

    /// `plugin/safetyTimer` (`started`, `fired`, `invalidated`).
    static func timer(_ state: String, deadline: String) -> Pattern {
        event("plugin/safetyTimer", #"{"deadline":\#(deadline),"state":"\#(state)"}"#)
    }

    /// Both requests submitted by schedule-next, refresh first.
    static func scheduleNext(
        refreshAt: String, processingAt: String? = nil, power: Bool = false, network: Bool = false
    ) -> [Pattern] {
        [
            submitted(.refresh, at: refreshAt),
            submitted(.processing, at: processingAt ?? refreshAt, power: power, network: network),
        ]
    }

    /// What starting the service (request 1, the default refresh safety timer) and
    /// launching a `kind` task (request 2) give with `--events` on a fresh plugin at 0:
    /// schedule-next's two requests, the start answered, the task launched (a refresh task
    /// starts its 28 s safety timer), and the launch answered.
    static func startedAndLaunched(_ kind: Kind) -> [Pattern] {
        let timerStarted = kind == .refresh ? [timer("started", deadline: "28")] : []
        return scheduleNext(refreshAt: "900") + [result(1), launched(kind, at: "0")] + timerStarted + [
            launchResult(2, kind, at: "0")
        ]
    }
}
