// What the OpenRPC document says about the methods' params and results beyond their
// members (`JSONSchemaDescribed`): a description per param, and the bounds a Swift
// type cannot carry.

extension StartKeepalive.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The config fields to store." }
    /// One description per field.
    public static var memberNotes: [String: JSONMemberNote] {
        let minutes = "minutes from now to the request's earliestBeginDate"
        return [
            "label": "Android notification label; accepted and ignored.",
            "foregroundServiceType": "Android only; accepted and ignored.",
            "iosSafetyTimeoutSecs": "Refresh safety timer, seconds (default 28).",
            "iosProcessingSafetyTimeoutSecs": "Processing safety timer, seconds; absent, null or <= 0: none.",
            "iosEarliestRefreshBeginMinutes": "Refresh: \(minutes) (default 15).",
            "iosEarliestProcessingBeginMinutes": "Processing: \(minutes) (default 15).",
            "iosRequiresExternalPower": "Processing needs power (default false).",
            "iosRequiresNetworkConnectivity": "Processing needs network (default false).",
        ]
    }
}

extension CompleteBgTask.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The task's success." }
    /// `success`.
    public static var memberNotes: [String: JSONMemberNote] {
        ["success": "Default true; not a bool: true under seed, -32602 under strict."]
    }
}

extension Initialize.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "What the host wants." }
    /// `capabilities`.
    public static var memberNotes: [String: JSONMemberNote] {
        ["capabilities": "capabilities.events: whether the host wants event notifications."]
    }
}

extension Initialize.Params.Capabilities: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "What the host wants." }
}

extension Initialize.Result: JSONSchemaDescribed {
    /// `InitializeResult`.
    public static var schemaName: String? { "InitializeResult" }
    /// What the plugin says.
    public static var schemaDescription: String { "What the plugin says about itself." }
    /// The version is fixed.
    public static var memberNotes: [String: JSONMemberNote] { ["protocolVersion": JSONMemberNote(nil, ["const": "1"])] }
}

extension Initialize.Result.ServerInfo: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The plugin's name and version (free text)." }
}

extension Initialize.Result.TaskIdentifiers: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "<bundle-id>.bg-refresh and <bundle-id>.bg-processing." }
}

extension OSLaunch.Result: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The launched task." }
    /// `at` is a moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}

extension OSAdvanceTime.Result: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The clock after." }
    /// `now` is a moment.
    public static var memberNotes: [String: JSONMemberNote] { ["now": .instant] }
}

extension OSSetConditions.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "Any subset of the conditions." }
    /// One description per condition.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "backgroundRefreshStatus": "The refresh setting.", "externalPower": "On external power.",
            "networkConnected": "Network connected.", "autoLaunch": "Launch eligible requests as time advances.",
        ]
    }
}

extension OSSetConditions.IOSParams: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "Any subset of the conditions, --os ios's included." }
    /// One description per condition `--os ios` adds (the rest are the flattened base's).
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "batteryLevel": "The battery, 0 to 1.", "lowPowerMode": "Low Power Mode.",
            "deviceInUse": "The user is using the device.",
        ]
    }
}

extension OSSubmit.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The request to submit." }
    /// One description per member.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "identifier": "A task identifier (-32602 when never registered).", "kind": "The request's kind.",
            "earliestBeginDate": "Absolute time on the clock, or null.",
            "requiresExternalPower": "Processing only.", "requiresNetworkConnectivity": "Processing only.",
        ]
    }
}
