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
            "TaskKind": named(TaskKind.self), "Profile": named(Profile.self), "Clock": named(ClockKind.self),
            "DispatchMode": named(DispatchMode.self), "DispatchQueueName": named(DispatchQueueName.self),
            "BackgroundRefreshStatus": named(BackgroundRefreshStatus.self),
            "SchedulerErrorKind": named(SchedulerErrorKind.self),
            "RejectReason": enumSchema(RejectReason.self, "Why the plugin rejected an invoke (data.reason of -32000)."),
            "TaskRequest": definition(of: TaskRequestInfo.self, writing: true),
            "Conditions": definition(of: Conditions.self, writing: true),
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
        // The contract's open shape, wider than what this plugin writes: not a declaration.
        let registration = object(
            ["identifier": ["type": "string"], "kind": ref("TaskKind")], required: ["identifier"],
            "A registered launch handler.")
        return [
            "Config": definition(of: PluginConfig.self, writing: true),
            "ActiveTask": definition(of: PluginStateSnapshot.ActiveTask.self, writing: true),
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
            "Counters": definition(of: PluginStateSnapshot.Counters.self, writing: true),
            "PluginState": definition(of: PluginStateSnapshot.self, writing: true),
            "InitializeResult": definition(of: Initialize.Result.self, writing: true),
            "TimerInvalidation": named(TimerInvalidation.self),
        ]
    }

    /// A named string enum's definition: its raw values and its description.
    static func named<E: JSONStringEnum & JSONSchemaDescribed>(_: E.Type) -> JSONValue {
        guard case .object(var o) = E.enumSchema else { return .null }
        o["description"] = .string(E.schemaDescription)
        return .object(o)
    }
}
