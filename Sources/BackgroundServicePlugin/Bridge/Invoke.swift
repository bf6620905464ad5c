import HostProtocol

/// The emulated Tauri `Invoke`: one call from the Rust side, answered at most once.
///
/// `resolve` becomes a JSON-RPC `result`, `reject` an error. A second answer is
/// a bug in the plugin: it is not written, and is reported as an
/// `invoke.answered-once` violation. An invoke released without any answer is
/// reported as dropped (counted in `plugin/state` as `counters.dropped`): that is
/// what the seed does to a `waitForCancel` replaced by a newer one, and, under
/// `--dispatch tauri`, to one that `cleanup()` lets go of after a race (the engine
/// tells the two apart by the statement that let go of it).
final class Invoke {
    /// How an answer leaves the plugin: `sink` writes it as a response carrying
    /// `replyID`, or into slot `slot` of `batch`; without a `replyID` (a
    /// notification's route) it goes nowhere. A plain value, so that an invoke costs
    /// one allocation, itself.
    struct Route {
        /// Who writes answers (the engine's one sink, shared by all its invokes).
        let sink: any InvokeSink
        /// The id the response carries; nil: answers go nowhere.
        var replyID: RequestID?
        /// The batch the answer belongs to, if any, and its place in it.
        var batch: BatchReply?
        var slot = 0
        /// Whether `replyID` stays in the engine's pending ids until answered.
        var tracksPending = false
        /// Mutant `second-answer-written`: a second answer is written as a response
        /// of its own, unreported.
        var writesSecondAnswer = false
    }

    /// The request's id; nil for a notification (answers go nowhere).
    let id: RequestID?
    /// The method name.
    let method: String
    /// The raw params (`{}` when absent).
    let args: JSONValue
    private var answered = false
    private let route: Route

    init(id: RequestID?, method: String, args: consuming JSONValue, route: consuming Route) {
        self.id = id
        self.method = method
        self.args = args
        self.route = route
    }

    /// Whether resolve or reject has been called.
    var isAnswered: Bool { answered }

    /// `invoke.resolve()`: the Rust side gets `Ok(null)` (or the given value).
    func resolve(_ value: JSONValue = .null) {
        answer(.success(value))
    }

    /// `invoke.reject(...)` with the contract's reason (-32000, `data.reason`).
    func reject(_ reason: RejectReason) {
        answer(.failure(.rejected(reason)))
    }

    /// Rejects with any JSON-RPC error (params errors, OS control errors).
    func reject(_ error: RPCError) {
        answer(.failure(error))
    }

    private func answer(_ outcome: Result<JSONValue, RPCError>) {
        guard !answered else {
            let id = id?.description ?? "(notification)"
            let detail = "\(method) request \(id) answered a second time; the second answer was not written"
            route.sink.answeredTwice(detail, outcome, for: route)
            return
        }
        answered = true
        route.sink.deliver(outcome, for: route)
    }

    deinit {
        if !answered { route.sink.deliver(nil, for: route) }
    }
}

/// Where invokes' answers are written (the engine), or recorded (tests).
protocol InvokeSink: AnyObject {
    /// Writes the answer of the invoke `route` belongs to; nil means "dropped unanswered".
    func deliver(_ outcome: Result<JSONValue, RPCError>?, for route: Invoke.Route)
    /// Reports a second answer (a bug in the plugin), `outcome`.
    func answeredTwice(_ detail: String, _ outcome: Result<JSONValue, RPCError>, for route: Invoke.Route)
}
