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
    /// How an answer leaves the plugin (a response frame, a batch slot, or nowhere).
    struct Route {
        /// Delivers the answer; nil means "dropped unanswered".
        let deliver: (Result<JSONValue, RPCError>?) -> Void
        /// Reports a second answer.
        let answeredTwice: (String) -> Void
        /// Given a second answer too, when set (the engine sets it only for the
        /// `second-answer-written` mutant, which writes it).
        var secondAnswer: ((Result<JSONValue, RPCError>) -> Void)? = nil
    }

    /// The request's id; nil for a notification (answers go nowhere).
    let id: RequestID?
    /// The method name.
    let method: String
    /// The raw params (`{}` when absent).
    let args: JSONValue
    private var answered = false
    private let route: Route

    init(id: RequestID?, method: String, args: JSONValue, route: Route) {
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
            route.answeredTwice("\(method) request \(id) answered a second time; the second answer was not written")
            route.secondAnswer?(outcome)
            return
        }
        answered = true
        route.deliver(outcome)
    }

    deinit {
        if !answered { route.deliver(nil) }
    }
}
