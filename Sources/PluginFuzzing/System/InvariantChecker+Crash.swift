import HostProtocol
import PluginHost

/// I4 (`--os ios`): no crash the host did not cause.
///
/// Under the policy's `crashOnMisuse` (the default) each misuse of `BGTaskScheduler` is an
/// `os/violation` with its rule, then a crash (`os/appTerminated {reason: "crash"}`). The
/// plugin reports the misuse; this reads those reports.
///
/// **What the host causes.** A late registration at a process's start comes from a policy
/// the host set about the app itself (`pluginLoadsLate`, or `multipleScenes`: tao loads the
/// plugin when a scene connects): Tauri runs no plugin code before that `load`, so no plugin
/// can register in time, and the fix is the app's (docs/fuzzing.md). Such a crash is the
/// host's and no finding. Every other crash is the plugin's: a `load` that registers again
/// when a webview is created (the registration Tauri makes the plugin repeat), a second
/// registration, a launch of a request the plugin submitted into a process without its handler.
extension InvariantChecker {
    /// I4 for each misuse among `reports` (the plugin's new `os/violation`s) that crashed the app.
    func crashes(_ reports: [ViolationEvent.Params], plugin s: PluginStateSnapshot) -> [Violation] {
        guard s.ios?.policy.crashOnMisuse == true else { return [] }
        var found: [Violation] = []
        for report in reports {
            let cause: String
            switch report.rule {
            case "ios.register-before-launch-end" where report.detail.contains("a webview was created"):
                cause = "a new webview's load registers the launch handlers again: the app crashes"
            case "ios.register-before-launch-end":
                continue  // the host's: the app loads the plugin after didFinishLaunching
            case "ios.register-once":
                cause = "a launch handler is registered twice: the app crashes"
            case "ios.launch-has-handler":
                cause = "the system launches a task the app has no handler for: the app crashes"
            default:
                continue
            }
            found.append(
                Violation(
                    invariant: .i4, cause: cause,
                    detail: "the plugin reported \(report.rule): \(report.detail); the uncaught "
                        + "NSInternalInconsistencyException ended the app's process"))
        }
        return found
    }
}
