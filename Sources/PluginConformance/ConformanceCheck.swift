import HostProtocol

/// One rule of the contract, checked by a script: the frames to send and the
/// replies expected, in order, as patterns (``Pattern``).
///
/// A check is data. The runner starts a fresh plugin for it (a new process with
/// `--profile P` and ``flags``), plays ``script`` step by step, validates every
/// frame against the OpenRPC document and matches each step's replies with the
/// expected patterns frame by frame. See `docs/conformance.md` for the matching
/// rules and the whole catalogue.
package struct ConformanceCheck: Sendable {
    /// The check's name, after its rule (`jsonrpc.batch.empty`).
    package let name: String
    /// The contract section the rule comes from (1 to 6).
    package let section: Int
    /// The rule, in words; says so when the check needs an extension.
    package let rule: String
    /// The profiles the check applies to; it runs once under each.
    package let profiles: [Profile]
    /// Plugin flags, added after `--profile P`.
    package let flags: [String]
    /// How ``ConformanceInput/json(_:)`` inputs and the barrier are framed on stdin.
    let inputFraming: Framing
    /// How the plugin's replies are framed on stdout.
    let outputFraming: Framing
    /// Methods beyond the contract that the check needs (for example `os/submit`).
    package let requires: [String]
    /// An Info.plist (XML) written to a temporary file and passed as `--info-plist`.
    let infoPlist: String?
    /// Also judge how every frame is written: compact JSON, object keys sorted.
    let judgesTextForm: Bool
    /// Run the script in two processes and require byte-identical stdout as well.
    let runsTwice: Bool
    /// What the check accepts where the contract leaves a choice open, in words
    /// (beyond the choices its patterns spell out, see ``acceptance``).
    let accepts: [String]
    /// The steps, for one profile.
    let script: @Sendable (Profile) -> [Exchange]

    /// Creates a check; most checks use the defaults.
    init(
        _ name: String, section: Int, rule: String, profiles: [Profile] = [.seed, .strict], flags: [String] = [],
        inputFraming: Framing = .ndjson, outputFraming: Framing? = nil, requires: [String] = [],
        infoPlist: String? = nil, judgesTextForm: Bool = false, runsTwice: Bool = false, accepts: [String] = [],
        script: @escaping @Sendable (Profile) -> [Exchange]
    ) {
        self.name = name
        self.section = section
        self.rule = rule
        self.profiles = profiles
        self.flags = flags
        self.inputFraming = inputFraming
        self.outputFraming = outputFraming ?? inputFraming
        self.requires = requires
        self.infoPlist = infoPlist
        self.judgesTextForm = judgesTextForm
        self.runsTwice = runsTwice
        self.accepts = accepts
        self.script = script
    }

    /// Everything the check accepts beyond the exact values it names: its own words,
    /// the open choices in its patterns, and a skip when an extension is missing.
    package var acceptance: [String] {
        var lines = accepts
        for profile in profiles {
            for step in script(profile) {
                let others = "other replies around the ones named (a race: only what must happen is judged)"
                if step.amongOthers, !lines.contains(others) { lines.append(others) }
                for pattern in step.expect {
                    for choice in pattern.openChoices where !lines.contains(choice) { lines.append(choice) }
                }
            }
        }
        for method in requires where !lines.contains(where: { $0.contains("-32601 to \(method)") }) {
            lines.append("-32601 to \(method): the check is skipped (extension not offered)")
        }
        return lines
    }

    /// Whether the check's steps differ between the two profiles.
    var differsByProfile: Bool {
        profiles.count > 1 && script(.seed).map(\.description) != script(.strict).map(\.description)
    }
}

/// One input on the plugin's stdin.
enum ConformanceInput: Sendable, Hashable {
    /// A JSON text, framed with the check's input framing.
    case json(String)
    /// Bytes written exactly as given (already framed, or deliberately broken).
    case raw([UInt8])

    /// Raw bytes from a string's UTF-8.
    static func text(_ s: String) -> ConformanceInput { .raw(Array(s.utf8)) }

    /// The bytes written for this input.
    func bytes(framing: Framing) -> [UInt8] {
        switch self {
        case .json(let s): FrameEncoder.frame(Array(s.utf8), framing: framing)
        case .raw(let b): b
        }
    }

    /// A readable form: the JSON text, or the raw bytes with `\r`, `\n` and
    /// non-printable bytes escaped (long inputs are shortened).
    var display: String {
        switch self {
        case .json(let s): ConformanceText.shorten(s)
        case .raw(let b): "raw " + ConformanceText.escape(b)
        }
    }
}

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
