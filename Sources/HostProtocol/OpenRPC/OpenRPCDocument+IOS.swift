/// What `--os ios` adds (`MethodRegistry.iosMethods` and `.iosEvents`): methods and
/// events marked `x-extension` and `x-os: "ios"` (under `--os manual` they do not
/// exist: -32601), and their types.
extension OpenRPCDocument {
    static var iosSchemas: [String: JSONValue] {
        return [
            "OSMode": named(OSMode.self), "ExpirationCause": named(ExpirationCause.self),
            "TerminationReason": named(TerminationReason.self), "LaunchCause": named(LaunchCause.self),
            "AppPhase": named(AppPhase.self), "LaunchFactor": named(LaunchFactor.self),
            "AppStatus": definition(of: AppStatus.self, writing: true),
            "IOSPolicy": definition(of: IOSPolicy.self, writing: true),
            "LaunchReason": definition(of: LaunchReason.self, writing: true),
            "LaunchExplanation": definition(of: LaunchExplanation.self, writing: true),
            "IOSState": definition(of: IOSStateSnapshot.self, writing: true),
        ]
    }

    /// The methods served only under `--os ios`.
    static var iosControls: [JSONValue] {
        let app = result(AppStatus.self, "The app's process after the change.")
        return [
            iosMethod(
                OSTerminate.self, "End the app's process (system: reclaimed; forceQuit: swiped away).",
                params: params(of: OSTerminate.Params.self), result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSOpenApp.self,
                "The user opens the app: a fresh process starts (appStates: a running one comes forward).",
                result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSExplain.self, "Why a request is not running now, and when it could.",
                params: params(of: IdentifierParams.self), result: result(LaunchExplanation.self, "The explanation.")),
            iosMethod(
                OSSetPolicy.self, "Change any of the policy's knobs; answer all of them.",
                params: params(of: IOSPolicy.Update.self),
                result: descriptor("result", ref("IOSPolicy"), "The whole policy.")),
            iosMethod(
                OSWebviewCreated.self,
                "A webview was created: Tauri's onWebviewCreated runs the plugin's load again.", result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSBlockMain.self, "Keep the app's main queue busy for seconds of virtual time (--dispatch tauri).",
                params: params(of: OSBlockMain.Params.self),
                result: result(OSBlockMain.Result.self, "{blockedSince, blockedUntil}"),
                errors: [errorRef("InvalidState")]),
        ]
    }

    /// The events sent only under `--os ios`.
    static var iosEvents: [JSONValue] {
        [
            event(AppLaunchedEvent.self, "The app's process started (before anything runs in it).", os: .ios),
            event(AppTerminatedEvent.self, "The app's process ended (before its invokes are answered).", os: .ios),
            event(LaunchDeferredEvent.self, "A request's planned launch came and it could not launch.", os: .ios),
        ]
    }

    private static func iosMethod<M: RPCMethod>(
        _ type: M.Type, _ summary: String, params: [JSONValue] = [], result: JSONValue, errors: [JSONValue] = []
    ) -> JSONValue {
        guard
            case .object(var m) = method(
                type, summary, params: params, result: result, errors: errors, isExtension: true)
        else { return .null }
        m["x-os"] = .string(OSMode.ios.rawValue)
        return .object(m)
    }
}
