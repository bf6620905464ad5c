/// `os/webviewCreated` (`--os ios` only): a new webview (window) was created in the running
/// app, and Tauri ran its `onWebviewCreated`: every plugin registered without a webview has its
/// `load` run again, since Tauri never marks such a plugin loaded
/// (crates/tauri/mobile/ios-api/Sources/Tauri/Tauri.swift, `PluginManager.onWebviewCreated`).
/// The seed's `load` registers its launch handlers again, after `didFinishLaunching`: a crash
/// under `crashOnMisuse`. Answers the app's process afterwards; `-32002` while the app is not
/// running (a webview needs a process).
public enum OSWebviewCreated: RPCMethod {
    public static let name = "os/webviewCreated"
    public static let kind = MethodKind.osControl
    public typealias Params = EmptyParams
    public typealias Result = AppStatus
}
