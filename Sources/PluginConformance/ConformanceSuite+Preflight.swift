import HostProtocol
import PluginHost

/// Before the checks: can the plugin be run at all?
///
/// A plugin that cannot start (a missing library, a licence check, a bad flag) would
/// otherwise fail every check with the same message. The suite starts it once, as
/// `PATH --profile seed [-- plugin-args]`, and sends one request, the barrier; any
/// answer to it (a conforming plugin's is -32601) means the checks can run.
extension ConformanceSuite {
    /// What the first request found.
    package enum Preflight: Sendable, Equatable {
        /// The plugin answered: run the checks.
        case ready
        /// The plugin did not start, or ended before answering: why, and the end of its stderr.
        case didNotStart(String, stderr: String)
        /// The plugin started but broke the transport before answering (silent past the
        /// time limit, flooding, an answer with an id never sent): why, and its stderr.
        case brokeTransport(String, stderr: String)
    }

    /// The id of the first request.
    static let preflightID = "conformance-barrier-1"

    /// Starts the plugin once and sends it one request (within the check time limit).
    package func preflight() -> Preflight {
        let check = ConformanceCheck("preflight", section: 1, rule: "", profiles: [.seed]) { _ in [] }
        let runner = CheckRunner(plugin: plugin)
        let pipe: PluginPipe
        do {
            (pipe, _) = try runner.start(check, profile: .seed)
        } catch {
            return .didNotStart(error.description, stderr: "")
        }
        var session = ExchangeSession(check: check, pipe: pipe, timeout: plugin.timeout, limits: plugin.limits)
        session.endsAtFirstResponse = true
        let result = session.play(.send(expect: []), barrierNumber: 1)
        let answered = result.values.first { $0["id"] != nil && $0["method"] == nil }
        let status = pipe.stop()
        let stderr = pipe.stderrTail
        let request = "its first request (\(CheckRunner.barrierMethod), id \"\(Self.preflightID)\")"
        if let answered {
            let id = answered["id"].map { TerminalText.oneLine($0.description, limit: 200) } ?? "null"
            return .brokeTransport(
                "the plugin answered \(request) with id \(id), an id never sent; it was stopped", stderr: stderr)
        }
        guard let note = result.note else { return .ready }
        switch result.breach {
        case .ended?:
            let how = status == .signaled(9) ? "closed its stdout" : "\(status)"
            return .didNotStart("the plugin \(how) before answering \(request)", stderr: stderr)
        case .timedOut?:
            return .brokeTransport(
                "the plugin did not answer \(request) within \(ConformanceText.seconds(plugin.timeout)) (--timeout); "
                    + "it was stopped", stderr: stderr)
        case .flooding?, .stoppedReading?:
            return .brokeTransport("before answering \(request), \(note)", stderr: stderr)
        case nil:
            return .ready
        }
    }
}
