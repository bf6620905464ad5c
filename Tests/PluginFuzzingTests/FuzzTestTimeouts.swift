import HostTestSupport

/// The fuzzers' hang timeouts in these tests: their defaults in a plain build, and many
/// times longer under a sanitizer, where a starved CI run once took over 30 s for one
/// plugin-level step of 9,049 frames. A timeout here only ends a hung run as the plugin
/// failing, so a longer one hides nothing; the tests stay deterministic either way.
enum FuzzTestTimeouts {
    /// ``PluginFuzzer/Configuration/replyTimeout``, in seconds.
    static let pluginReply: Double = SanitizerBuild.active ? 300 : 30
    /// ``SystemFuzzer/Configuration/answerTimeout``.
    static let systemAnswer: Duration = SanitizerBuild.active ? .seconds(120) : .seconds(10)
}
