import PluginHost

/// `plugin-host`'s exit statuses, the same for every subcommand (`docs/reliability.md`,
/// "Exit statuses"). A plugin that cannot be run is never reported as a finding of
/// its rules, nor as "nothing found": it has a status of its own.
enum ExitCode {
    /// Success: every rule held, every check passed, nothing found, identical.
    static let ok: Int32 = 0
    /// The plugin broke a rule: a finding, a failing check, a replay that differs, a
    /// demo or explain session whose verdict is not "every rule held".
    static let failed: Int32 = 1
    /// The plugin could not be started, or ended before the run could begin
    /// (a start failure; its stderr is shown).
    static let pluginDidNotStart: Int32 = 2
    /// The plugin broke the transport, so the run could not be judged: it flooded the
    /// host, went silent past a timeout, wrote what is not a frame, answered twice or
    /// with ids nobody sent, or ended in the middle of the run.
    static let pluginMisbehaved: Int32 = 3
    /// A usage error: a bad command line, or a file named on it that cannot be used.
    static let usage: Int32 = 64
    /// Stopped by SIGINT (128 + 2), as a shell reports it; SIGTERM gives 143.
    static let interrupted: Int32 = 130

    /// The status for a run that failed with `error` from the plugin's side: a start
    /// failure is ``pluginDidNotStart``, everything else ``pluginMisbehaved``.
    static func status(for error: HostError) -> Int32 {
        error.code == .launchFailed ? pluginDidNotStart : pluginMisbehaved
    }
}
