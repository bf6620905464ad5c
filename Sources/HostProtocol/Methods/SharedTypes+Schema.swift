// What the OpenRPC document says about the shared types beyond their members
// (`JSONSchemaDescribed`): names, sentences, and the notes a Swift type cannot carry.

extension TaskKind: JSONSchemaDescribed {
    /// `TaskKind`.
    public static var schemaName: String? { "TaskKind" }
    /// The two kinds.
    public static var schemaDescription: String { "refresh: a BGAppRefreshTask; processing: a BGProcessingTask." }
}

extension Profile: JSONSchemaDescribed {
    /// `Profile`.
    public static var schemaName: String? { "Profile" }
    /// The two profiles.
    public static var schemaDescription: String { "--profile: seed (as the seed plugin) or strict (its fixes)." }
}

extension ClockKind: JSONSchemaDescribed {
    /// `Clock`.
    public static var schemaName: String? { "Clock" }
    /// The two clocks.
    public static var schemaDescription: String { "--clock: virtual (moves only with os/advanceTime) or real." }
}

extension BackgroundRefreshStatus: JSONSchemaDescribed {
    /// `BackgroundRefreshStatus`.
    public static var schemaName: String? { "BackgroundRefreshStatus" }
    /// The setting.
    public static var schemaDescription: String { "The Background App Refresh setting." }
}

extension TaskRequestInfo: JSONSchemaDescribed {
    /// `TaskRequest`.
    public static var schemaName: String? { "TaskRequest" }
    /// A pending request.
    public static var schemaDescription: String {
        "A pending task request, as os/pendingTaskRequests and os/requestSubmitted show it."
    }
}

extension Conditions: JSONSchemaDescribed {
    /// `Conditions`.
    public static var schemaName: String? { "Conditions" }
    /// The device's conditions and their defaults.
    public static var schemaDescription: String {
        "The emulated device's conditions; defaults available, false, true, false (autoLaunch true under "
            + "--os ios, which adds batteryLevel, lowPowerMode and deviceInUse)."
    }
}

extension PluginConfig: JSONSchemaDescribed {
    /// `Config`.
    public static var schemaName: String? { "Config" }
    /// The kept values.
    public static var schemaDescription: String { "The six ios… values startKeepalive keeps." }
}

extension IdentifierParams: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The request's identifier." }
    /// `identifier`.
    public static var memberNotes: [String: JSONMemberNote] {
        ["identifier": "A task identifier (os/launch, os/expire: -32602 when never registered)."]
    }
}

extension SchedulerErrorKind: JSONSchemaDescribed {
    /// `SchedulerErrorKind`.
    public static var schemaName: String? { "SchedulerErrorKind" }
    /// Where it appears.
    public static var schemaDescription: String {
        "An emulated BGTaskScheduler.Error: data.scheduler, os/submitFailed's error."
    }
}

extension DispatchMode: JSONSchemaDescribed {
    /// `DispatchMode`.
    public static var schemaName: String? { "DispatchMode" }
    /// The two dispatch modes.
    public static var schemaDescription: String { "--dispatch: serial (one executor) or tauri (ipc and main)." }
}

extension DispatchQueueName: JSONSchemaDescribed {
    /// `DispatchQueueName`.
    public static var schemaName: String? { "DispatchQueueName" }
    /// A queue.
    public static var schemaDescription: String { "An emulated queue of --dispatch tauri." }
}

extension TimerInvalidation: JSONSchemaDescribed {
    /// `TimerInvalidation`.
    public static var schemaName: String? { "TimerInvalidation" }
    /// The two outcomes.
    public static var schemaDescription: String {
        "An off-thread Timer.invalidate() under --dispatch tauri: removed, or notRemoved (it still fires)."
    }
}

extension PluginDispatchSchedule.Result: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "What happened since the last call." }
    /// Counts.
    public static var memberNotes: [String: JSONMemberNote] { ["decisions": .count, "unused": .count] }
}
