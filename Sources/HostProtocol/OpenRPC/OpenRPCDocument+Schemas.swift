/// `components.schemas`: the shared types, the JSON-RPC envelopes, and the error data.
extension OpenRPCDocument {
    static var schemas: [String: JSONValue] {
        var s = protocolTypes
        for (name, schema) in envelopes { s[name] = schema }
        for (name, schema) in stateTypes { s[name] = schema }
        for (name, schema) in iosSchemas { s[name] = schema }
        for (name, schema) in appStatesSchemas { s[name] = schema }
        return s
    }

    private static var protocolTypes: [String: JSONValue] {
        [
            "Time": [
                "type": "number",
                "description": "Seconds on the plugin's clock, a JSON number (the virtual clock starts at 0).",
            ],
            "Instant": [
                "type": "number", "minimum": 0,
                "description": "A moment of the plugin's clock: seconds since it started (or was reset), >= 0.",
            ],
            "TaskKind": enumSchema(TaskKind.self, "refresh: a BGAppRefreshTask; processing: a BGProcessingTask."),
            "Profile": enumSchema(Profile.self, "--profile: seed (as the seed plugin) or strict (its fixes)."),
            "Clock": enumSchema(ClockKind.self, "--clock: virtual (moves only with os/advanceTime) or real."),
            "DispatchMode": enumSchema(DispatchMode.self, "--dispatch: serial (one executor) or tauri (ipc and main)."),
            "DispatchQueueName": enumSchema(DispatchQueueName.self, "An emulated queue of --dispatch tauri."),
            "BackgroundRefreshStatus": enumSchema(BackgroundRefreshStatus.self, "The Background App Refresh setting."),
            "SchedulerErrorKind": enumSchema(
                SchedulerErrorKind.self, "An emulated BGTaskScheduler.Error: data.scheduler, os/submitFailed's error."),
            "RejectReason": enumSchema(RejectReason.self, "Why the plugin rejected an invoke (data.reason of -32000)."),
            "TaskRequest": taskRequest,
            "Conditions": object(
                [
                    "backgroundRefreshStatus": ref("BackgroundRefreshStatus"), "externalPower": ["type": "boolean"],
                    "networkConnected": ["type": "boolean"], "autoLaunch": ["type": "boolean"],
                    "batteryLevel": ["type": "number", "minimum": 0, "maximum": 1],
                    "lowPowerMode": ["type": "boolean"], "deviceInUse": ["type": "boolean"],
                ],
                required: ["backgroundRefreshStatus", "externalPower", "networkConnected", "autoLaunch"],
                "The emulated device's conditions; defaults available, false, true, false (autoLaunch true under "
                    + "--os ios, which adds batteryLevel, lowPowerMode and deviceInUse)."),
            "InvokeRejectedData": object(
                ["reason": ref("RejectReason")], required: ["reason"], "error.data of -32000 InvokeRejected."),
            "SchedulerErrorData": object(
                ["scheduler": ref("SchedulerErrorKind")], required: ["scheduler"],
                "error.data of -32001 SchedulerError."),
            "InvalidStateData": [
                "anyOf": [
                    ["type": "null"],
                    object(
                        ["now": ref("Instant")], required: [],
                        "os/advanceTime stopped at its bound: `now` is the clock's time when it stopped. The "
                            + "contract fixes no other member (a plugin may add its own)."),
                ],
                "description": .string(
                    "error.data of -32002 InvalidState: our plugin sends none, except `now` for a bounded "
                        + "os/advanceTime."),
            ],
        ]
    }

    /// A pending task request (`components.schemas.TaskRequest`, and `os/requestSubmitted`'s params).
    static var taskRequest: JSONValue {
        object(
            [
                "identifier": ["type": "string"], "kind": ref("TaskKind"),
                "earliestBeginDate": ["anyOf": [ref("Time"), ["type": "null"]]],
                "requiresExternalPower": ["type": "boolean"], "requiresNetworkConnectivity": ["type": "boolean"],
            ],
            required: [
                "identifier", "kind", "earliestBeginDate", "requiresExternalPower", "requiresNetworkConnectivity",
            ],
            "A pending task request, as os/pendingTaskRequests and os/requestSubmitted show it.")
    }

    /// The JSON-RPC 2.0 messages the plugin writes, for validating a frame as a whole.
    private static var envelopes: [String: JSONValue] {
        [
            "RequestID": [
                "type": ["string", "number", "null"],
                "description": "A request id: the response carries the request's, or null when it could not be read.",
            ],
            "ErrorObject": object(
                ["code": ["type": "integer"], "message": ["type": "string"]], required: ["code", "message"],
                "A JSON-RPC error object; data as the code's entry in components.errors says (x-data-schema)."),
            "Response": [
                "type": "object",
                "properties": ["jsonrpc": ["const": "2.0"], "id": ref("RequestID"), "error": ref("ErrorObject")],
                "required": ["jsonrpc", "id"],
                "oneOf": [["required": ["result"]], ["required": ["error"]]],
                "description": "A response: exactly one of result and error.",
            ],
            "BatchResponse": [
                "type": "array", "items": ref("Response"), "minItems": 1,
                "description": "The reply to a batch: the responses, in request order.",
            ],
            "Notification": [
                "type": "object",
                "properties": [
                    "jsonrpc": ["const": "2.0"], "method": ["type": "string"], "params": ["type": "object"],
                ],
                "required": ["jsonrpc", "method"],
                "not": ["required": ["id"]],
                "description": "An event the plugin sends: a request without an id, params by name.",
            ],
            "Frame": [
                "anyOf": [ref("Response"), ref("BatchResponse"), ref("Notification")],
                "description": "Anything the plugin may write on stdout.",
            ],
        ]
    }

    /// `plugin/state`'s parts and `initialize`'s result.
    private static var stateTypes: [String: JSONValue] {
        let config: [String: JSONValue] = [
            "iosSafetyTimeoutSecs": ["type": "number"],
            "iosProcessingSafetyTimeoutSecs": ["type": ["number", "null"]],
            "iosEarliestRefreshBeginMinutes": ["type": "number"],
            "iosEarliestProcessingBeginMinutes": ["type": "number"],
            "iosRequiresExternalPower": ["type": "boolean"], "iosRequiresNetworkConnectivity": ["type": "boolean"],
        ]
        let registration = object(
            ["identifier": ["type": "string"], "kind": ref("TaskKind")], required: ["identifier"],
            "A registered launch handler.")
        return [
            "Config": object(config, required: config.keys.sorted(), "The six ios… values startKeepalive keeps."),
            "ActiveTask": object(
                ["identifier": ["type": "string"], "kind": ref("TaskKind"), "launchedAt": ref("Instant")],
                required: ["identifier", "kind", "launchedAt"], "The task that is running."),
            "Registered": [
                "anyOf": [
                    ["type": "array", "items": registration],
                    ["type": "array", "items": ["type": "string"]],
                    [
                        "type": "object",
                        "additionalProperties": [
                            "anyOf": [ref("TaskKind"), ["type": "object", "properties": ["kind": ref("TaskKind")]]]
                        ],
                    ],
                ],
                "description": .string(
                    "The registered identifiers. The contract leaves the shape open: an array of "
                        + "{identifier, kind}, an array of identifiers, or an object keyed by identifier "
                        + "(values: the kind, or an object with kind)."),
            ],
            "Counters": object(
                [
                    "launched": ["type": "integer", "minimum": 0], "completed": ["type": "integer", "minimum": 0],
                    "expired": ["type": "integer", "minimum": 0], "violations": ["type": "integer", "minimum": 0],
                    "watchdogKills": ["type": "integer", "minimum": 0],
                    "crashes": ["type": "integer", "minimum": 0],
                ],
                required: ["launched", "completed", "expired", "violations"], "Running totals since start or reset."),
            "PluginState": object(
                [
                    "now": ref("Instant"), "clock": ref("Clock"), "profile": ref("Profile"),
                    "activeTask": ["anyOf": [ref("ActiveTask"), ["type": "null"]]],
                    "pendingCancelInvoke": ref("RequestID"),
                    "safetyTimer": [
                        "anyOf": [
                            object(["deadline": ref("Time")], required: ["deadline"], "The scheduled safety timer."),
                            ["type": "null"],
                        ]
                    ],
                    "config": ref("Config"),
                    "pendingRequests": ["type": "array", "items": ref("TaskRequest")],
                    "registered": ref("Registered"), "conditions": ref("Conditions"), "counters": ref("Counters"),
                    "ios": ref("IOSState"),
                ],
                required: [
                    "now", "clock", "profile", "activeTask", "pendingCancelInvoke", "safetyTimer", "config",
                    "pendingRequests", "registered", "conditions", "counters",
                ],
                "A snapshot of the plugin and the emulated OS; pendingCancelInvoke: the pending request's id or null."
            ),
            "InitializeResult": object(
                [
                    "protocolVersion": ["const": "1"],
                    "serverInfo": object(
                        ["name": ["type": "string"], "version": ["type": "string"]], required: ["name", "version"],
                        "The plugin's name and version (free text)."),
                    "bundleIdentifier": ["type": "string"],
                    "taskIdentifiers": object(
                        ["refresh": ["type": "string"], "processing": ["type": "string"]],
                        required: ["refresh", "processing"], "<bundle-id>.bg-refresh and <bundle-id>.bg-processing."),
                    "clock": ref("Clock"), "profile": ref("Profile"),
                    "os": ref("OSMode"), "osSeed": ["type": "integer", "minimum": 0],
                ],
                required: ["protocolVersion", "serverInfo", "bundleIdentifier", "taskIdentifiers", "clock", "profile"],
                "What the plugin says about itself."),
            "TimerInvalidation": enumSchema(
                TimerInvalidation.self,
                "An off-thread Timer.invalidate() under --dispatch tauri: removed, or notRemoved (it still fires)."),
        ]
    }
}
