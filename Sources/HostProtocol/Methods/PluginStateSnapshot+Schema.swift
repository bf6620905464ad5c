// What the OpenRPC document says about `plugin/state`'s snapshot beyond its members
// (`JSONSchemaDescribed`).

extension PluginStateSnapshot: JSONSchemaDescribed {
    /// `PluginState`.
    public static var schemaName: String? { "PluginState" }
    /// The snapshot.
    public static var schemaDescription: String {
        "A snapshot of the plugin and the emulated OS; pendingCancelInvoke: the pending request's id or null."
    }
    /// `now` is a moment; `registered` is the contract's open shape; `pendingCancelInvoke` is an id.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "now": .instant, "registered": JSONMemberNote(nil, jsonSchemaReference("Registered")),
            "pendingCancelInvoke": JSONMemberNote(nil, jsonSchemaReference("RequestID")),
            "cancelInvokePending": "This plugin's own addition: whether a waitForCancel is pending.",
            "notificationAuthorizationRequests": JSONMemberNote(
                "This plugin's own addition: notification permission requests made.", ["minimum": 0]),
        ]
    }
}

extension PluginStateSnapshot.ActiveTask: JSONSchemaDescribed {
    /// `ActiveTask`.
    public static var schemaName: String? { "ActiveTask" }
    /// The running task.
    public static var schemaDescription: String { "The task that is running." }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["launchedAt": .instant] }
}

extension PluginStateSnapshot.Counters: JSONSchemaDescribed {
    /// `Counters`.
    public static var schemaName: String? { "Counters" }
    /// Totals.
    public static var schemaDescription: String { "Running totals since start or reset." }
    /// Every counter is a count.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "launched": .count, "completed": .count, "expired": .count, "violations": .count,
            "watchdogKills": .count, "crashes": .count, "dropped": .count,
        ]
    }
}

extension PluginStateSnapshot.SafetyTimer: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The scheduled safety timer." }
}
