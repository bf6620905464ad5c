/// What `--os ios` adds (`MethodRegistry.iosMethods` and `.iosEvents`): methods and
/// events marked `x-extension` and `x-os: "ios"` (under `--os manual` they do not
/// exist: -32601), and their types.
extension OpenRPCDocument {
    static var iosSchemas: [String: JSONValue] {
        let time: JSONValue = ref("Time")
        let nullableTime: JSONValue = ["anyOf": [ref("Time"), ["type": "null"]]]
        var policy: [String: JSONValue] = [
            "refreshEarlyExpiryChance": ["type": "number", "minimum": 0, "maximum": 1],
            "energyBudgetLaunches": [
                "type": "integer", "minimum": 1, "maximum": .number(IOSPolicy.maxEnergyBudgetLaunches),
            ],
            "pluginLoadsLate": ["type": "boolean"],
            "crashOnMisuse": ["type": "boolean"],
            "multipleScenes": ["type": "boolean"],
        ]
        // Written only when set (absent: no limit); `os/setPolicy` takes null to remove it.
        let optionalPolicy: [String: JSONValue] = [
            "maxConcurrentTasks": [
                "type": ["integer", "null"], "minimum": 1, "maximum": .number(IOSPolicy.maxConcurrentTasksLimit),
            ]
        ]
        let runningTask = object(
            [
                "identifier": ["type": "string"], "budgetDeadline": nullableTime, "expiredAt": nullableTime,
                "watchdogDeadline": nullableTime, "heldByApp": ["type": "boolean"],
            ],
            required: ["identifier", "budgetDeadline", "expiredAt", "watchdogDeadline"],
            "The running task as the OS sees it.")
        for (key, _) in IOSPolicy.secondsKeys {
            let low = IOSPolicy.isBudget(key) ? IOSPolicy.minBudgetSeconds : 0
            policy[key] = [
                "type": "number", "minimum": IOSPolicy.secondsJSON(low),
                "maximum": IOSPolicy.secondsJSON(IOSPolicy.maxSeconds),
            ]
        }
        return [
            "OSMode": enumSchema(OSMode.self, "--os: manual (the OS acts only on os/ controls), ios or simulator."),
            "ExpirationCause": enumSchema(ExpirationCause.self, "Why the OS expired a task (--os ios)."),
            "TerminationReason": enumSchema(TerminationReason.self, "Why the app's process ended (--os ios)."),
            "LaunchCause": enumSchema(LaunchCause.self, "Why the app's process was started (--os ios)."),
            "AppPhase": enumSchema(AppPhase.self, "Where the app's process is in its life (--os ios)."),
            "LaunchFactor": enumSchema(LaunchFactor.self, "One thing that keeps a request from running now."),
            "AppStatus": object(
                [
                    "phase": ref("AppPhase"), "launchCause": ref("LaunchCause"), "launchedAt": time,
                    "forceQuit": ["type": "boolean"], "registrationError": ["type": ["string", "null"]],
                    "lastTermination": [
                        "anyOf": [
                            object(
                                ["reason": ref("TerminationReason"), "at": time], required: ["reason", "at"],
                                "How the last process ended."),
                            ["type": "null"],
                        ]
                    ],
                    "launches": ["type": "integer", "minimum": 0],
                ],
                required: [
                    "phase", "launchCause", "launchedAt", "forceQuit", "registrationError", "lastTermination",
                    "launches",
                ], "The app's process (--os ios)."),
            "IOSPolicy": object(
                policy.merging(optionalPolicy.merging(appStatesPolicy) { a, _ in a }) { a, _ in a },
                required: policy.keys.sorted(),
                "The knobs of the --os ios policy."),
            "LaunchReason": object(
                ["factor": ref("LaunchFactor"), "detail": ["type": "string"], "until": time],
                required: ["factor", "detail"], "One reason a request is not running now."),
            "LaunchExplanation": object(
                [
                    "identifier": ["type": "string"],
                    "status": enumSchema(LaunchExplanation.Status.self, "Where it stands."),
                    "reasons": ["type": "array", "items": ref("LaunchReason")], "nextPossibleAt": nullableTime,
                    "earliestBeginDate": time, "plannedAt": time,
                ],
                required: ["identifier", "status", "reasons", "nextPossibleAt"],
                "Why a request is not running now, and when it could."),
            "IOSState": object(
                [
                    "app": ref("AppStatus"), "policy": ref("IOSPolicy"),
                    "energy": object(
                        [
                            "launchesAvailable": ["type": "integer", "minimum": 0],
                            "capacity": ["type": "integer", "minimum": 1], "fullAt": time,
                        ],
                        required: ["launchesAvailable", "capacity", "fullAt"], "The daily energy budget."),
                    "runningTask": ["anyOf": [runningTask, ["type": "null"]]],
                    "nextEventAt": nullableTime,
                    "runningTasks": ["type": "array", "items": runningTask],
                    "appState": ref("AppState"),
                ],
                required: ["app", "policy", "energy", "runningTask", "nextEventAt", "runningTasks"],
                "plugin/state's ios member (--os ios only)."),
        ]
    }

    /// The methods served only under `--os ios`.
    static var iosControls: [JSONValue] {
        let app = descriptor("result", ref("AppStatus"), "The app's process after the change.")
        let reasons: JSONValue = [
            "enum": [.string(TerminationReason.system.rawValue), .string(TerminationReason.forceQuit.rawValue)]
        ]
        return [
            iosMethod(
                OSTerminate.self, "End the app's process (system: reclaimed; forceQuit: swiped away).",
                params: [descriptor("reason", reasons, required: true, "system or forceQuit.")], result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSOpenApp.self,
                "The user opens the app: a fresh process starts (appStates: a running one comes forward).",
                result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSExplain.self, "Why a request is not running now, and when it could.",
                params: [descriptor("identifier", ["type": "string"], required: true, "A task identifier.")],
                result: descriptor("result", ref("LaunchExplanation"), "The explanation.")),
            iosMethod(
                OSSetPolicy.self, "Change any of the policy's knobs; answer all of them.",
                params: (iosSchemas["IOSPolicy"]?["properties"]?.objectValue ?? [:]).map { key, schema in
                    descriptor(key, schema, "A policy knob (docs/protocol.md, section 8).")
                },
                result: descriptor("result", ref("IOSPolicy"), "The whole policy.")),
            iosMethod(
                OSWebviewCreated.self,
                "A webview was created: Tauri's onWebviewCreated runs the plugin's load again.", result: app,
                errors: [errorRef("InvalidState")]),
            iosMethod(
                OSBlockMain.self, "Keep the app's main queue busy for seconds of virtual time (--dispatch tauri).",
                params: [descriptor("seconds", ["type": "number", "minimum": 0], required: true, "How long, >= 0.")],
                result: descriptor(
                    "result",
                    object(
                        ["blockedSince": ref("Instant"), "blockedUntil": ref("Instant")],
                        required: ["blockedSince", "blockedUntil"], "When main became busy and when it is free."),
                    "{blockedSince, blockedUntil}"),
                errors: [errorRef("InvalidState")]),
        ]
    }

    /// The events sent only under `--os ios`.
    static var iosEvents: [JSONValue] {
        let time: JSONValue = ref("Instant")
        return [
            event(
                AppLaunchedEvent.name, "The app's process started (before anything runs in it).",
                object(
                    ["cause": ref("LaunchCause"), "at": time, "identifier": ["type": "string"]],
                    required: ["cause", "at"],
                    "Why and when; for a cold start, the task's identifier."), os: .ios),
            event(
                AppTerminatedEvent.name, "The app's process ended (before its invokes are answered).",
                object(
                    [
                        "reason": ref("TerminationReason"), "at": time, "identifier": ["type": "string"],
                        "exception": ["type": "string"], "message": ["type": "string"],
                    ],
                    required: ["reason", "at"],
                    "Why and when; the running task's identifier, if any; a crash's exception and message."),
                os: .ios),
            event(
                LaunchDeferredEvent.name, "A request's planned launch came and it could not launch.",
                object(
                    [
                        "identifier": ["type": "string"], "at": time,
                        "reasons": ["type": "array", "items": ref("LaunchReason")],
                        "nextPossibleAt": ["anyOf": [ref("Time"), ["type": "null"]]],
                    ],
                    required: ["identifier", "at", "reasons", "nextPossibleAt"], "As os/explain gives them."),
                os: .ios),
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
