/// What the app's states add under `--os ios` (issue 23): the `AppState` and `AppStateChange`
/// types, the policy members, `os/sendToBackground` and `os/appStateChanged`.
extension OpenRPCDocument {
    /// `AppState` and `AppStateChange`.
    static var appStatesSchemas: [String: JSONValue] {
        ["AppState": named(AppState.self), "AppStateChange": definition(of: AppStateChange.self, writing: true)]
    }

    /// `os/sendToBackground`.
    static var appStatesControls: [JSONValue] {
        [
            appStatesMethod(
                OSSendToBackground.self, "The user leaves the app: foreground to background (appStates).",
                result: result(AppStateChange.self, "The app's state after the change."))
        ]
    }

    /// `os/appStateChanged`.
    static var appStatesEvents: [JSONValue] {
        [
            event(
                AppStateChangedEvent.self, "The app moved between foreground, background and suspended.", os: .ios,
                describedAs: "The new state and when; the task whose launch woke it.")
        ]
    }

    private static func appStatesMethod<M: RPCMethod>(_ type: M.Type, _ summary: String, result: JSONValue)
        -> JSONValue
    {
        guard
            case .object(var m) = method(
                type, summary, params: [], result: result, errors: [errorRef("InvalidState")], isExtension: true)
        else { return .null }
        m["x-os"] = .string(OSMode.ios.rawValue)
        return .object(m)
    }
}
