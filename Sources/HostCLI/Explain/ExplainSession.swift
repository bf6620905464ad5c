import Dispatch
import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// A live session for `plugin-host explain`: a fresh plugin under `--os ios`, the
/// user's JSON-RPC lines forwarded to it one at a time (each answered before the
/// next is sent, except `waitForCancel`, which stays pending as in a real host), and
/// `os/explain` asked for every identifier whenever the user wants.
///
/// ```swift
/// let session = try ExplainSession(plugin: options, echo: { print($0) })
/// try session.send(line: #"{"jsonrpc":"2.0","id":1,"method":"startKeepalive"}"#)
/// let answers = try session.explainAll()
/// ```
final class ExplainSession: Sendable {
    /// A line the session could not use, or a plugin that cannot explain.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        /// Connection request ids and the ids the user wrote for them.
        var userIDs: [RequestID: JSONValue] = [:]
        /// The user's id for the request being written now.
        var writing: JSONValue?
        /// Whether the plugin answered a `shutdown`.
        var shutDown = false
        /// Why the line being sent was not served (not an error reply: the plugin gone, a timeout).
        var lineFailure: HostError?
    }

    let connection: PluginConnection
    private let state = Mutex(State())
    private let answerTimeout: Duration
    /// What the plugin said about itself.
    let info: Initialize.Result

    /// Starts the plugin; `echo` gets every reply to the user's lines and every event, in wire order.
    init(
        plugin: PluginProcess.Options, answerTimeout: Duration = .seconds(10),
        echo: @escaping @Sendable (String) -> Void
    ) throws(Failure) {
        self.answerTimeout = answerTimeout
        let relay = Mutex<(@Sendable (ConnectionEvent) -> Void)?>(nil)
        do {
            connection = try PluginConnection(
                plugin: plugin, options: .init(tap: { event in relay.withLock { $0 }?(event) }))
            info = try connection.callBlocking(Initialize.self, .init(events: true), timeout: answerTimeout)
        } catch {
            throw Failure(description: "cannot start a session: \(error)")
        }
        relay.withLock { $0 = { [weak self] in self?.tapped($0, echo: echo) } }
    }

    private func tapped(_ event: ConnectionEvent, echo: @Sendable (String) -> Void) {
        switch event {
        case .sentRequest(let r):
            state.withLock { s in if let user = s.writing { s.userIDs[r.id] = user } }
        case .receivedResponse(let r):
            guard let user = state.withLock({ $0.userIDs.removeValue(forKey: r.id) }) else { return }
            switch r.outcome {
            case .success(let v): echo("← #\(user) ok \(v)")
            case .failure(let e):
                echo("← #\(user) error \(e.code.rawValue) \(e.message)\(e.data.map { " \($0)" } ?? "")")
            }
        case .receivedNotification(let n):
            echo("← event \(n.method) \(n.params?.description ?? "")")
        default:
            break
        }
    }

    /// Forwards one request or notification as the user wrote it (the plugin sees the
    /// session's own id; replies are shown with the user's). Waits for the answer,
    /// except for `waitForCancel`, whose answer is shown when it comes.
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
        let params = message["params"]
        guard let userID = message["id"] else {
            do {
                try connection.notify(method: method, params: params)
            } catch {
                throw Failure(description: "\(method): \(error)")
            }
            return
        }
        let done = DispatchSemaphore(value: 0)
        state.withLock {
            $0.writing = userID
            $0.lineFailure = nil
        }
        connection.start(method: method, params: params, timeout: nil) { [self] result in
            switch result {
            case .success:
                if method == Shutdown.name { state.withLock { $0.shutDown = true } }
            case .failure(let error) where error.code != .rpcError:
                if method != WaitForCancel.name { state.withLock { $0.lineFailure = error } }
            case .failure:
                break
            }
            done.signal()
        }
        state.withLock { $0.writing = nil }
        if method == WaitForCancel.name { return }
        if done.wait(timeout: .now() + .seconds(Int(answerTimeout.components.seconds))) == .timedOut {
            throw Failure(description: "\(method): no answer within \(answerTimeout.components.seconds) s")
        }
        // An error reply is the plugin's answer, shown to the user; anything else (the
        // plugin gone, a protocol error) means the line was not served.
        if let error = state.withLock({ $0.lineFailure }) { throw Failure(description: "\(method): \(error)") }
    }

    /// Whether a `shutdown` request was answered: the plugin has ended cleanly, and
    /// there is nothing left to explain.
    var hasShutDown: Bool { state.withLock { $0.shutDown } }

    /// The identifiers to explain: the plugin's two, then any other registered or pending, in that order.
    func identifiers() throws(Failure) -> [String] {
        let snapshot: PluginStateSnapshot
        do {
            snapshot = try connection.callBlocking(PluginStateMethod.self, EmptyParams(), timeout: answerTimeout)
        } catch {
            throw Failure(description: "plugin/state: \(error)")
        }
        var ids = [info.refreshIdentifier, info.processingIdentifier]
        for id in snapshot.registered.map(\.identifier) + snapshot.pendingRequests.map(\.identifier)
        where !ids.contains(id) {
            ids.append(id)
        }
        return ids
    }

    /// `os/explain` for one identifier.
    func explain(_ identifier: String) throws(Failure) -> LaunchExplanation {
        guard info.os == .ios else {
            throw Failure(description: "the plugin is not under --os ios (the default here), so it has no os/explain")
        }
        do {
            return try connection.callBlocking(OSExplain.self, .init(identifier: identifier), timeout: answerTimeout)
        } catch {
            throw Failure(description: "os/explain: \(error)")
        }
    }

    /// The plugin's clock and `os/explain` for every identifier.
    func explainAll() throws(Failure) -> (now: VirtualTime, answers: [LaunchExplanation]) {
        let ids = try identifiers()
        var answers: [LaunchExplanation] = []
        for id in ids { answers.append(try explain(id)) }
        let now: VirtualTime
        do {
            now = try connection.callBlocking(PluginStateMethod.self, EmptyParams(), timeout: answerTimeout).now
        } catch {
            throw Failure(description: "plugin/state: \(error)")
        }
        return (now, answers)
    }

    /// Ends the session: the plugin is shut down and reaped.
    @discardableResult
    func close() -> ExitStatus { connection.close(grace: .seconds(2)) }
}
