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
/// Bounded whatever the plugin writes: events are shown as they come and not kept
/// (the connection keeps none for later), the plugin's stderr is forwarded as it
/// comes, and what breaks the protocol is counted (``HostCLI/ProtocolTally``: the
/// first few of each kind kept). A plugin that writes more than ``PeerLimits`` allows
/// without being asked is stopped by the connection as flooding; every wait for an
/// answer ends after ``answerTimeout``.
///
/// ```swift
/// let session = try ExplainSession(plugin: launcher, echo: { print($0) })
/// try session.send(line: #"{"jsonrpc":"2.0","id":1,"method":"startKeepalive"}"#)
/// let answers = try session.explainAll()
/// ```
final class ExplainSession: Sendable {
    /// A line the session could not use, or a plugin that cannot explain; `error` is the
    /// plugin's side of it, when it was the plugin's (nil: the line itself).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        var error: HostError?
    }

    private struct State {
        /// Connection request ids and the ids the user wrote for them.
        var userIDs: [RequestID: JSONValue] = [:]
        /// The user's id for the request being written now.
        var writing: JSONValue?
        /// Whether the plugin answered a `shutdown`.
        var shutDown = false
        /// What the plugin wrote that breaks the protocol.
        var tally = HostCLI.ProtocolTally()
        /// The plugin's counters as last read (`plugin/state`).
        var counters: PluginStateSnapshot.Counters?
        /// Events shown since the user's last line, and those past ``ExplainSession/eventsShownPerLine`` not shown.
        var eventsShown = 0
        var eventsHidden = 0
    }

    /// The most events shown after one line of the user's; the rest are counted
    /// (``takeHiddenEvents()``), so that a plugin that writes events in a loop does not
    /// hold the session up printing them before it is stopped as flooding.
    static let eventsShownPerLine = 10_000

    let connection: PluginConnection
    private let shared = Mutex(State())
    /// How long each request waits for its answer (`--timeout`).
    let answerTimeout: Duration
    /// What the plugin said about itself.
    let info: Initialize.Result

    /// ``answerTimeout`` unless one is given: 10 s.
    static let defaultAnswerTimeout: Duration = .seconds(10)

    /// Starts the plugin; `echo` gets every reply to the user's lines and every event, in
    /// wire order, one line each and safe for a terminal. A plugin that does not answer
    /// `initialize` is stopped before this throws: none is left behind.
    init(
        plugin: PluginLauncher, answerTimeout: Duration = defaultAnswerTimeout,
        echo: @escaping @Sendable (String) -> Void
    ) throws(Failure) {
        self.answerTimeout = answerTimeout
        // The closure sits in a struct: a closure stored as a Mutex's value itself is
        // re-wrapped in two reabstraction thunks on every `withLock` (its inout is copied
        // in and out through thunks), and a chain that grows with each event ends in a
        // stack overflow under a flooding plugin.
        let relay = Mutex(Relay())
        let early = Mutex(HostCLI.ProtocolTally())
        let options = PluginConnection.Options(
            tap: { event in
                if let forward = relay.withLock({ $0.forward }) {
                    forward(event)
                } else {
                    early.withLock { ExplainSession.count(event, in: &$0) }
                }
            },
            notificationBuffer: .bufferingNewest(0),
            log: { HostCLI.diagnose("explain", $0) })
        let connection: PluginConnection
        do {
            connection = try PluginConnection(launcher: plugin, options: options)
        } catch {
            throw Failure(description: "cannot start the plugin: \(error)", error: error)
        }
        self.connection = connection
        do {
            info = try connection.callBlocking(Initialize.self, .init(events: true), timeout: answerTimeout)
        } catch {
            connection.close(grace: .seconds(2))
            throw Failure(description: "initialize: \(error)", error: error)
        }
        shared.withLock { $0.tally = early.withLock { $0 } }
        relay.withLock { $0.forward = { [weak self] in self?.tapped($0, echo: echo) } }
    }

    /// Where the tap sends events once the session is up.
    private struct Relay {
        var forward: (@Sendable (ConnectionEvent) -> Void)?
    }

    private static func count(_ event: ConnectionEvent, in tally: inout HostCLI.ProtocolTally) {
        switch event {
        case .sentRequest(let r): tally.sent(r.id)
        case .receivedResponse(let r): tally.answered(r.id)
        case .receivedOther(let batch):
            for member in batch.arrayValue ?? [] {
                if case .response(let r) = Message.classify(member) { tally.answered(r.id) }
            }
        case .protocolError(let why): tally.protocolError(why)
        default: break
        }
    }

    private func tapped(_ event: ConnectionEvent, echo: @Sendable (String) -> Void) {
        shared.withLock { Self.count(event, in: &$0.tally) }
        let line: String?
        switch event {
        case .sentRequest(let r):
            shared.withLock { s in if let user = s.writing { s.userIDs[r.id] = user } }
            line = nil
        case .receivedResponse(let r):
            guard let user = shared.withLock({ $0.userIDs.removeValue(forKey: r.id) }) else { return }
            switch r.outcome {
            case .success(let v): line = "← #\(user) ok \(v)"
            case .failure(let e):
                line = "← #\(user) error \(e.code.rawValue) \(e.message)\(e.data.map { " \($0)" } ?? "")"
            }
        case .receivedNotification(let n):
            let show = shared.withLock { s in
                guard s.eventsShown < Self.eventsShownPerLine else {
                    s.eventsHidden += 1
                    return false
                }
                s.eventsShown += 1
                return true
            }
            line = show ? "← event \(n.method) \(n.params?.description ?? "")" : nil
        default:
            line = nil
        }
        if let line { echo(TerminalText.oneLine(line, limit: .max)) }
    }

    /// What the plugin wrote that broke the protocol so far.
    var tally: HostCLI.ProtocolTally { shared.withLock { $0.tally } }

    /// The plugin's counters as last read, if they were.
    var counters: PluginStateSnapshot.Counters? { shared.withLock { $0.counters } }

    /// Whether a `shutdown` request was answered: the plugin has ended cleanly, and
    /// there is nothing left to explain.
    var hasShutDown: Bool { shared.withLock { $0.shutDown } }

    /// The user's id for the request being written now (nil once written).
    func setWriting(_ id: JSONValue?) { shared.withLock { $0.writing = id } }

    /// A new line of the user's: a new count of the events shown.
    func startLine() { shared.withLock { $0.eventsShown = 0 } }

    /// Events not shown since the last call (past ``eventsShownPerLine`` after a line).
    func takeHiddenEvents() -> Int {
        shared.withLock { s in
            defer { s.eventsHidden = 0 }
            return s.eventsHidden
        }
    }

    /// The plugin answered a `shutdown`.
    func markShutDown() { shared.withLock { $0.shutDown = true } }

    /// Keeps the counters last read.
    func keep(_ counters: PluginStateSnapshot.Counters) { shared.withLock { $0.counters = counters } }

    /// Ends the session: the plugin is shut down and reaped.
    @discardableResult
    func close() -> ExitStatus { connection.close(grace: answerTimeout) }
}
