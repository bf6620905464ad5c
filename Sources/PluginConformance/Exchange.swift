import HostProtocol

/// One exchange of a check's script (a "step" in its reports): inputs, then what the
/// plugin must have written in reply.
struct Exchange: Sendable, CustomStringConvertible {
    /// How the step ends.
    enum Ending: Sendable, Hashable {
        /// A barrier request follows the inputs; every frame written before the
        /// barrier's reply is compared with ``expect``.
        case barrier
        /// No barrier (the inputs may end mid-frame); this step's output is
        /// collected by the next step.
        case none
        /// The plugin must write ``expect``, close stdout and exit with status 0;
        /// `closeStdin` closes its stdin after the inputs (end of input).
        case exit(closeStdin: Bool)
    }

    /// What is written, each input with its own `write(2)`.
    let inputs: [ConformanceInput]
    /// The replies expected, in order.
    let expect: [Pattern]
    /// How the step ends.
    let ending: Ending
    /// Whether other frames may come before, between and after the expected ones (a
    /// race, where the contract fixes what must happen but not everything that may).
    var amongOthers = false
    /// Whether notifications of methods the contract does not name count too (they are
    /// set aside otherwise): a step where no notification of any method may come.
    var judgesEveryNotification = false

    /// The step, judging every notification: none of any method may come but those
    /// expected (before `initialize`, a plugin sends no notification at all).
    var judgingEveryNotification: Exchange {
        var step = self
        step.judgesEveryNotification = true
        return step
    }

    /// Sends JSON texts, then the barrier; expects `expect`.
    static func send(_ json: String..., expect: [Pattern]) -> Exchange {
        Exchange(inputs: json.map(ConformanceInput.json), expect: expect, ending: .barrier)
    }

    /// Sends inputs, then the barrier; expects `expect`.
    static func send(_ inputs: [ConformanceInput], expect: [Pattern]) -> Exchange {
        Exchange(inputs: inputs, expect: expect, ending: .barrier)
    }

    /// Sends JSON texts, then the barrier; the replies must include `expect`, in that
    /// order, among any others (every frame is still validated against the document).
    static func send(_ json: String..., including expect: [Pattern]) -> Exchange {
        var step = Exchange(inputs: json.map(ConformanceInput.json), expect: expect, ending: .barrier)
        step.amongOthers = true
        return step
    }

    /// Sends inputs without a barrier; their replies are expected by the next step.
    static func partial(_ inputs: [ConformanceInput]) -> Exchange {
        Exchange(inputs: inputs, expect: [], ending: .none)
    }

    /// Sends inputs (optionally closing stdin after them) and expects `expect`, then
    /// the end of stdout and exit status 0.
    static func exit(_ inputs: [ConformanceInput], closeStdin: Bool, expect: [Pattern]) -> Exchange {
        Exchange(inputs: inputs, expect: expect, ending: .exit(closeStdin: closeStdin))
    }

    /// The step as text (inputs with `→`, replies with `←`), as the catalogue shows it.
    var description: String {
        var lines = inputs.map { "→ " + $0.display }
        switch ending {
        case .barrier: break
        case .none: lines.append("  (no barrier: the replies are expected with the next step)")
        case .exit(let close):
            lines.append(close ? "→ (end of input: stdin closed)" : "  (no barrier: the plugin must exit)")
        }
        if amongOthers { lines.append("← (any replies, including these in this order:)") }
        if judgesEveryNotification {
            lines.append("← (nothing else: a notification of any method, named by the contract or not, fails)")
        }
        lines += expect.map { "← " + ConformanceText.shorten($0.description, limit: 2000) }
        if case .barrier = ending, expect.isEmpty, !amongOthers { lines.append("← (nothing)") }
        if case .exit = ending { lines.append("← (end of output, exit status 0)") }
        return lines.joined(separator: "\n")
    }
}
