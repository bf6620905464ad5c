import HostProtocol

/// What `plugin-host explain`'s command line asks for (parsed by `ExplainCommand`,
/// played by ``ExplainRun``).
struct ExplainRequest {
    /// `--profile`.
    var profile: Profile = .seed
    /// `--os-seed`.
    var seed: UInt64 = 0
    /// `--timeout`, for each answer.
    var timeout = ExplainSession.defaultAnswerTimeout
    /// `--plugin`.
    var pluginPath = ""
    /// `--json`.
    var json = false
    /// Whether each script line is echoed (not with `--quiet`).
    var echo = true
    /// The plugin's own flags, after `--`.
    var passthrough: [String] = []
}
