import HostProtocol
import PluginHost

/// One `plugin-host explain` session from its first line to its verdict: the user's
/// lines forwarded, `explain` answered, and at the end (unless the session ended with
/// `shutdown`) one more explanation, the plugin's counters and how it ended.
///
/// A line that cannot be used (not JSON, not a request, sent after the shutdown) is
/// reported and the session goes on; a plugin that breaks the transport ends it there.
struct ExplainRun {
    let session: ExplainSession
    let request: ExplainRequest
    private var verdict = HostCLI.Verdict()
    private var stopped: ExplainSession.Failure?
    private var unusable = HostCLI.Sample()

    init(session: ExplainSession, request: ExplainRequest) {
        self.session = session
        self.request = request
    }

    /// Plays every line of `input`, then the end; returns the verdict's status.
    consuming func play(_ input: LineSource) -> Int32 {
        var number = 0
        while stopped == nil, let raw = input.next() {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line == "explain" || line.hasPrefix("explain ") || line.hasPrefix("explain\t") {
                let id = line.dropFirst("explain".count).trimmingCharacters(in: .whitespaces)
                report(id.isEmpty ? nil : id)
                continue
            }
            showHidden()
            if request.echo { HostCLI.Screen.out(TerminalText.oneLine("→ \(line)", limit: .max)) }
            do {
                try session.send(line: line)
            } catch {
                failed(error, line: number)
            }
        }
        // After a clean `shutdown` there is no plugin left to ask: no final report.
        if stopped == nil, !session.hasShutDown { report(nil) }
        if stopped == nil, !session.hasShutDown, session.counters == nil { _ = try? session.state() }
        let exit = session.close()
        showHidden()
        judge(exit)
        Self.show(verdict, json: request.json)
        return verdict.status
    }

    /// `… 12,345 more events not shown`, when some were not.
    private func showHidden() {
        let hidden = session.takeHiddenEvents()
        guard request.echo, hidden > 0 else { return }
        HostCLI.Screen.out(
            "… \(HostCLI.Verdict.count(hidden, "more event")) not shown (at most "
                + "\(OutputMeter.count(ExplainSession.eventsShownPerLine)) after a line)")
    }

    /// A line that was not served: the plugin's failure ends the session, the line's own is counted.
    private mutating func failed(_ failure: ExplainSession.Failure, line number: Int) {
        HostCLI.diagnose("explain", "line \(number): \(failure)")
        if let error = failure.error, !session.hasShutDown {
            stopped = failure
            HostCLI.diagnose("explain", "the session ends here: \(HostCLI.Verdict.name(of: error, starting: false))")
        } else {
            unusable.add("line \(number)")
        }
    }

    /// Explains every identifier (or `only`) at this point.
    private mutating func report(_ only: String?) {
        do throws(ExplainSession.Failure) {
            let result = try session.explainAll()
            let answers = only.map { id in result.answers.filter { $0.identifier == id } } ?? result.answers
            let shown = answers.isEmpty ? [try session.explain(only!)] : answers
            if request.json {
                Console.json(ExplainReport.json(now: result.now, answers: shown))
            } else {
                HostCLI.Screen.out(ExplainReport.text(now: result.now, answers: shown))
            }
        } catch {
            HostCLI.diagnose("explain", "\(error)")
            stopped = error
        }
    }

    private mutating func judge(_ exit: ExitStatus) {
        if let stopped {
            let error = stopped.error ?? .protocolError(stopped.description)
            let kind = stopped.error.map { HostCLI.Verdict.Kind($0, starting: false) } ?? .rule
            verdict.add(
                kind, HostCLI.Verdict.name(of: error, starting: false), "the session stopped early: \(stopped)")
        }
        session.tally.report(into: &verdict, stoppedBy: stopped?.description)
        if let counters = session.counters { verdict.judge(counters) }
        if stopped == nil {
            if exit.isSuccess {
                verdict.held("the plugin exited 0")
            } else {
                verdict.add(.rule, "exit status", "the plugin \(exit) at the end of the session (it must exit 0)")
            }
        }
        if unusable.count > 0 {
            verdict.add(
                .input, "unusable lines",
                "\(HostCLI.Verdict.count(unusable.count, "line")) of the input could not be used: \(unusable.text)")
        }
    }

    /// The verdict: on stdout after the problems, or on stderr under `--json` (stdout
    /// holds the explanations only).
    static func show(_ verdict: HostCLI.Verdict, json: Bool) {
        if json {
            for line in verdict.details + [verdict.line] { HostCLI.diagnose("explain", line) }
        } else {
            let problems = verdict.problems.isEmpty ? [] : ["problems:"] + verdict.details
            HostCLI.Screen.out((problems + [verdict.line]).joined(separator: "\n"))
        }
    }
}
