import Foundation
import Synchronization

/// The fuzzer's progress line on stderr: steps per second, cases, findings and
/// distinct states. Redrawn in place on a terminal; one line every 10 s otherwise.
public final class FuzzProgress: Sendable {
    private struct State {
        var lastDraw = Date.distantPast
        var cases = 0
        var steps = 0
        var findings = 0
        var states: Int?
    }

    private let state = Mutex(State())
    private let start = Date()
    private let interactive: Bool
    private let quiet: Bool

    /// Creates a reporter; `quiet` silences it (tests).
    public init(quiet: Bool = false) {
        self.quiet = quiet
        interactive = isatty(2) == 1
    }

    /// Records progress, redrawing when it is time.
    public func update(cases: Int, steps: Int, findings: Int, states: Int?) {
        guard !quiet else { return }
        let line: String? = state.withLock { s in
            s.cases = max(s.cases, cases)
            s.steps = max(s.steps, steps)
            s.findings = max(s.findings, findings)
            if let states { s.states = states }
            let now = Date()
            guard now.timeIntervalSince(s.lastDraw) >= (interactive ? 0.2 : 10) else { return nil }
            s.lastDraw = now
            return render(s)
        }
        if let line { draw(line) }
    }

    /// Announces a finding on its own line; `after`: seconds into the run when the
    /// case that first showed it ended (before shrinking).
    public func finding(_ signature: String, seed: UInt64, after: Double? = nil) {
        guard !quiet else { return }
        if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let when = after.map { String(format: ", first seen after %.2f s", $0) } ?? ""
        FileHandle.standardError.write(Data("finding (case seed \(seed)\(when)): \(signature)\n".utf8))
    }

    /// Ends the progress line.
    public func finish() {
        guard !quiet else { return }
        let line = state.withLock { render($0) }
        draw(line)
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func render(_ s: State) -> String {
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        var text =
            "\(Int(Double(s.steps) / elapsed)) steps/s, \(s.cases) cases, \(s.steps) steps, \(s.findings) findings"
        if let states = s.states { text += ", \(states) distinct states" }
        return text + String(format: ", %.1f s", elapsed)
    }

    private func draw(_ line: String) {
        let text = interactive ? "\r\u{1B}[K" + line : line + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
