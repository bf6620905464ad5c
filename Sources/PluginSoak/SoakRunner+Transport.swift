import HostProtocol
import PluginHost

/// What the soak reads besides its answers: every frame, seen on the connection's tap.
/// Fuzz answers are counted against what was sent; anything a conforming plugin never
/// writes (a second answer, an id nobody sent, events without end, a frame that is not
/// JSON-RPC) stops the plugin at once and fails the soak as a transport failure, so that
/// no call waits for the timeout and nothing piles up.
extension SoakRunner {
    /// The most events the soak reads with no answer between them before it stops the
    /// plugin as flooding (``PeerLimits/maxUnpromptedFrames``: the soak keeps writing, so
    /// the connection's own bound on output written unasked would never be reached).
    var maxEventsWithoutAnswer: Int { PeerLimits.default.maxUnpromptedFrames }

    /// Sees every frame: fuzz answers are counted against what was sent.
    func tap(_ event: ConnectionEvent) {
        switch event {
        case .receivedResponse(let r): received(r)
        case .receivedNotification(let n):
            let flooding = shared.withLock { s -> Bool in
                s.eventsSinceAnswer += 1
                return s.eventsSinceAnswer == maxEventsWithoutAnswer + 1
            }
            if flooding {
                broke(
                    "the plugin flooded its output: \(OutputMeter.count(maxEventsWithoutAnswer + 1)) events (the last "
                        + "\(TerminalText.oneLine(n.method, limit: 100))) without an answer between them "
                        + "(limit \(OutputMeter.count(maxEventsWithoutAnswer))); stopped")
            }
        case .protocolError(let detail):
            // Answers to the malformed frames a fuzz case sends have id null; the fuzz
            // cases' and the probe's raw requests are answered outside the pending table.
            let expected = shared.withLock { s -> Bool in
                defer { s.unmatchedAnswerExpected = false }
                return detail.hasPrefix("response for id ")
                    && (detail.hasPrefix("response for id null,") || s.unmatchedAnswerExpected)
            }
            if !expected { broke("protocol error from the plugin: \(TerminalText.oneLine(detail, limit: 300))") }
        default: break
        }
    }

    private func received(_ r: Response) {
        let twice = shared.withLock { s -> Bool in
            s.eventsSinceAnswer = 0
            s.unmatchedAnswerExpected = false
            if s.probing, case .number = r.id {
                s.probeAnswers[r.id] = r.error.map { $0.code.rawValue } ?? 0
                s.unmatchedAnswerExpected = true
                return false
            }
            guard case .string(let text) = r.id, text.hasPrefix("f") else { return false }
            guard let entry = s.outstanding[r.id] else { return true }
            if entry.count == 1 { s.outstanding[r.id] = nil } else { s.outstanding[r.id]?.count -= 1 }
            s.unmatchedAnswerExpected = true
            return false
        }
        if twice {
            broke(
                "the plugin answered request \(TerminalText.oneLine(r.id.description, limit: 100)) twice (or a request "
                    + "never sent)")
        }
    }

    /// The plugin broke the transport: the first reason is kept, and the plugin (with
    /// whatever it forked) is stopped, which fails every call still waiting.
    func broke(_ why: String) {
        let transport = shared.withLock { s -> (any PluginTransport)? in
            guard s.transportFailure == nil else { return nil }
            s.transportFailure = why
            return s.transport
        }
        transport?.terminate()
    }

    /// The first transport failure seen, if any.
    var transportFailure: String? { shared.withLock { $0.transportFailure } }

    /// Whether a call failed because of the transport (the plugin exited, went silent,
    /// flooded, wrote what is not a frame), not with an answer.
    static func isTransport(_ error: HostError) -> Bool {
        switch error.code {
        case .pluginExited, .timedOut, .protocolError, .closed, .ioFailure, .flooding, .launchFailed: true
        default: false
        }
    }
}
