import Dispatch
import Foundation
import HostProtocol
import Synchronization

/// The fuzzer's progress line on stderr: steps per second, cases, findings and
/// distinct states, whether or not stderr is a terminal. Redrawn in place on a
/// terminal (at most every 0.2 s); otherwise one line every 10 s. A run in progress
/// redraws on a timer too, so a plugin that has stopped answering still shows the
/// time passing.
public final class FuzzProgress: Sendable {
    private struct State {
        var lastDraw = Date.distantPast
        var cases = 0
        var steps = 0
        var findings = 0
        var states: Int?
        var ticker: Ticker?
    }

    private let state = Mutex(State())
    private let began = Date()
    private let interactive: Bool
    private let quiet: Bool

    /// Creates a reporter; `quiet` silences it (tests).
    public init(quiet: Bool = false) {
        self.quiet = quiet
        interactive = isatty(2) == 1
    }

    private var interval: Double { interactive ? 0.2 : 10 }

    /// Records progress, redrawing when it is time.
    public func update(cases: Int, steps: Int, findings: Int, states: Int?) {
        guard !quiet else { return }
        let line: String? = state.withLock { s in
            s.cases = max(s.cases, cases)
            s.steps = max(s.steps, steps)
            s.findings = max(s.findings, findings)
            if let states { s.states = states }
            return due(&s)
        }
        if let line { draw(line) }
    }

    private func due(_ s: inout State) -> String? {
        let now = Date()
        guard now.timeIntervalSince(s.lastDraw) >= interval else { return nil }
        s.lastDraw = now
        return render(s)
    }

    /// Starts redrawing on a timer (every 1 s on a terminal, 10 s otherwise) until ``stop()``.
    public func start() {
        guard !quiet else { return }
        let every = interactive ? 1.0 : 10.0
        let ticker = Ticker(every: every) { [weak self] in
            guard let self, let line = state.withLock({ self.due(&$0) }) else { return }
            draw(line)
        }
        state.withLock { s in
            s.ticker?.cancel()
            s.ticker = ticker
        }
    }

    /// Stops the timer ``start()`` started.
    public func stop() {
        state.withLock { s in
            s.ticker?.cancel()
            s.ticker = nil
        }
    }

    /// Announces a finding on its own line; `after`: seconds into the run when the
    /// case that first showed it ended (before shrinking).
    public func finding(_ signature: String, seed: UInt64, after: Double? = nil) {
        guard !quiet else { return }
        if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let when = after.map { String(format: ", first seen after %.2f s", $0) } ?? ""
        let text = "finding (case seed \(seed)\(when)): \(TerminalText.oneLine(signature))\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the progress line with the run's final counts, so that the last line agrees
    /// with the summary (`findings`: the findings kept).
    public func finish(cases: Int? = nil, steps: Int? = nil, findings: Int? = nil) {
        stop()
        guard !quiet else { return }
        let line = state.withLock { s in
            if let cases { s.cases = cases }
            if let steps { s.steps = steps }
            if let findings { s.findings = findings }
            return render(s)
        }
        draw(line)
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func render(_ s: State) -> String {
        let elapsed = max(Date().timeIntervalSince(began), 0.001)
        var text =
            "\(Int(Double(s.steps) / elapsed)) steps/s, \(s.cases) cases, \(s.steps) steps, "
            + Self.count(s.findings, "finding")
        if let states = s.states { text += ", \(states) distinct states" }
        return text + String(format: ", %.1f s", elapsed)
    }

    /// `"1 finding"`, `"2 findings"`.
    public static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    private func draw(_ line: String) {
        let text = interactive ? "\r\u{1B}[K" + line : line + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// A repeating timer on a global queue (a dispatch source is safe to cancel from any thread).
private final class Ticker: @unchecked Sendable {
    private let source: DispatchSourceTimer

    init(every seconds: Double, _ tick: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + seconds, repeating: seconds)
        source.setEventHandler(handler: tick)
        source.resume()
    }

    func cancel() { source.cancel() }
}
