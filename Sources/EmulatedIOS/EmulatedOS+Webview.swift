import HostProtocol

/// Tauri's load path under `--os ios`: `os/webviewCreated`.
///
/// Tauri's iOS runtime (crates/tauri/mobile/ios-api/Sources/Tauri/Tauri.swift) keeps a
/// `loaded` flag per plugin: `PluginManager.load` runs the plugin's `load(webview:)` and sets
/// it only when the plugin is registered with a webview; `onWebviewCreated` runs `load` for
/// every plugin not marked loaded, and never marks it. A plugin registered without a webview
/// (one set up before its first window exists) is therefore loaded again for every new
/// webview. Here a process's start is its first webview (the plugin's first `load`), and
/// `os/webviewCreated` is each further one: the seed's `load` runs again, asks for
/// notification permission again and registers both launch handlers again, after
/// `didFinishLaunching`: Apple's `NSInternalInconsistencyException`, a crash under
/// `crashOnMisuse` (`EmulatedOS+Crash.swift`).
extension EmulatedOS {
    /// `os/webviewCreated`: runs the plugin's `load` again in the running process.
    package func webviewCreated() throws(RPCError) -> AppStatus {
        guard ios != nil, app.isRunning else {
            throw RPCError.invalidState(
                "cannot create a webview: the app is not running (os/openApp starts it)")
        }
        let process = app
        do {
            try loadAgain(process)
        } catch {
            registrationFailed(
                error, in: process,
                why: "a webview was created: Tauri's onWebviewCreated ran the plugin's load again")
        }
        return appStatus
    }
}
