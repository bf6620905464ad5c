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
