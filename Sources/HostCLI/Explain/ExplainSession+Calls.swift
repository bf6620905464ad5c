import Dispatch
import HostProtocol
import PluginHost
import Synchronization

/// The session's calls: the user's lines, and what it asks the plugin itself
/// (`plugin/state`, `os/explain`), each waiting at most ``ExplainSession/answerTimeout``.
extension ExplainSession {
    /// Forwards one request or notification as the user wrote it (the plugin sees the
    /// session's own id; replies are shown with the user's). Waits for the answer,
    /// except for `waitForCancel`, whose answer is shown when it comes. Before a
    /// `shutdown` the plugin's counters are read, for the verdict.
    func send(line: String) throws(Failure) {
        let message: JSONValue
        do {
            message = try JSONParser.parse(Array(line.utf8))
        } catch {
            throw Failure(description: "not JSON: \(error)")
        }
        guard case .object = message, let method = message["method"]?.stringValue else {
            throw Failure(description: "not a JSON-RPC request (an object with a \"method\" string)")
        }
        let shown = TerminalText.oneLine(method, limit: 200)
        startLine()
        let params = message["params"]
        if method == Shutdown.name, !hasShutDown { _ = try? state() }
        guard let userID = message["id"] else {
            do {
                try connection.notify(method: method, params: params)
            } catch {
                throw Failure(description: "\(shown): \(error)", error: error)
            }
            return
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        let waits = method != WaitForCancel.name
        setWriting(userID)
        connection.start(method: method, params: params, timeout: waits ? answerTimeout : nil) { [self] result in
            switch result {
            case .success:
                if method == Shutdown.name { markShutDown() }
            case .failure(let error) where error.code != .rpcError && error.code != .rejected:
                outcome.set(error)
            case .failure:
                break
            }
            done.signal()
        }
        setWriting(nil)
        guard waits else { return }
        // The connection's own timeout ends the wait; this one only guards against a completion that never runs.
        let margin = DispatchTime.now() + .nanoseconds(Int(answerTimeout / .nanoseconds(1))) + .seconds(5)
        if done.wait(timeout: margin) == .timedOut {
            let error = HostError.timedOut(method: method, seconds: Double(answerTimeout / .milliseconds(1)) / 1000)
            throw Failure(description: "\(shown): \(error)", error: error)
        }
        // An error reply is the plugin's answer, shown to the user; anything else (the
        // plugin gone, a protocol error, no answer in time) means the line was not served.
        if let error = outcome.error { throw Failure(description: "\(shown): \(error)", error: error) }
    }

    /// `plugin/state`, its counters kept for the verdict.
    @discardableResult
    func state() throws(Failure) -> PluginStateSnapshot {
        let snapshot: PluginStateSnapshot
        do {
            snapshot = try connection.callBlocking(PluginStateMethod.self, EmptyParams(), timeout: answerTimeout)
        } catch {
            throw Failure(description: "plugin/state: \(error)", error: error)
        }
        keep(snapshot.counters)
        return snapshot
    }

    /// The identifiers to explain: the plugin's two, then any other registered or pending, in that order.
    func identifiers() throws(Failure) -> (now: VirtualTime, ids: [String]) {
        let snapshot = try state()
        var ids = [info.refreshIdentifier, info.processingIdentifier]
        for id in snapshot.registered.map(\.identifier) + snapshot.pendingRequests.map(\.identifier)
        where !ids.contains(id) {
            ids.append(id)
        }
        return (snapshot.now, ids)
    }

    /// `os/explain` for one identifier.
    func explain(_ identifier: String) throws(Failure) -> LaunchExplanation {
        guard info.os == .ios else {
            throw Failure(description: "the plugin is not under --os ios (the default here), so it has no os/explain")
        }
        do {
            return try connection.callBlocking(OSExplain.self, .init(identifier: identifier), timeout: answerTimeout)
        } catch {
            throw Failure(description: "os/explain: \(error)", error: error)
        }
    }

    /// The plugin's clock and `os/explain` for every identifier.
    func explainAll() throws(Failure) -> (now: VirtualTime, answers: [LaunchExplanation]) {
        let (now, ids) = try identifiers()
        var answers: [LaunchExplanation] = []
        for id in ids { answers.append(try explain(id)) }
        return (now, answers)
    }
}

/// A call's failure, set on the reader thread and read by the caller after the wait.
private final class OutcomeBox: Sendable {
    private let value = Mutex<HostError?>(nil)
    func set(_ error: HostError) { value.withLock { $0 = error } }
    var error: HostError? { value.withLock { $0 } }
}
