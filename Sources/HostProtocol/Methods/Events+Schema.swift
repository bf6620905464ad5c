// What the OpenRPC document says about the events' params beyond their members
// (`JSONSchemaDescribed`).

extension SubmitFailedEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The request's identifier and the scheduler error." }
}

extension ViolationEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String {
        "The rule's name (exactly-once, invoke.answered-once) and what happened."
    }
}

extension SafetyTimerEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The transition and the timer's deadline." }
}

extension SafetyTimerEvent.State: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The transition." }
}

extension TaskEventParams: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The task and when." }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}

extension AppLaunchedEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "Why and when; for a cold start, the task's identifier." }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}

extension AppTerminatedEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String {
        "Why and when; the running task's identifier, if any; a crash's exception and message."
    }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}

extension LaunchDeferredEvent.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "As os/explain gives them." }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}
