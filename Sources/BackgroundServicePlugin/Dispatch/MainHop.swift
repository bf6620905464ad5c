import HostProtocol

/// `DispatchQueue.main.async { body }` as the one step of an `ipc` job: the real plugin's
/// later versions wrap every invoke's body so (`--profile strict`), and the body then runs on
/// the main queue, behind the main jobs already queued (``Dispatcher``).
///
/// The hop holds the body (and so its invoke) until it hands it to the main queue.
final class MainHop: StepJob {
    private var body: StepJob?
    private unowned let dispatcher: Dispatcher
    private var hopping = false
    let name: String

    /// A hop of `body` onto `dispatcher`'s main queue.
    init(_ body: StepJob, on dispatcher: Dispatcher) {
        self.body = body
        self.dispatcher = dispatcher
        name = body.name
    }

    var runningStep: String? { hopping ? "DispatchQueue.main.async { … }" : nil }
    var isFinished: Bool { body == nil }

    func step() {
        guard let body else { return }
        hopping = true
        defer { hopping = false }
        self.body = nil
        // A caller blocked on main waits for this very answer: the body never runs (issue 22).
        if dispatcher.hopDeadlocks(body) { return dispatcher.park(body) }
        dispatcher.asyncMain { [dispatcher] in dispatcher.run(body) }
    }

    func runToEnd() { step() }

    func abandon(_ reason: RejectReason) {
        body?.abandon(reason)
        body = nil
    }
}
