// What the OpenRPC document says about `--os ios`'s types beyond their members
// (`JSONSchemaDescribed`).

extension OSMode: JSONSchemaDescribed {
    /// `OSMode`.
    public static var schemaName: String? { "OSMode" }
    /// The two modes.
    public static var schemaDescription: String { "--os: manual (the OS acts only on os/ controls), ios or simulator." }
}

extension ExpirationCause: JSONSchemaDescribed {
    /// `ExpirationCause`.
    public static var schemaName: String? { "ExpirationCause" }
    /// Why.
    public static var schemaDescription: String { "Why the OS expired a task (--os ios)." }
}

extension TerminationReason: JSONSchemaDescribed {
    /// `TerminationReason`.
    public static var schemaName: String? { "TerminationReason" }
    /// Why.
    public static var schemaDescription: String { "Why the app's process ended (--os ios)." }
}

extension LaunchCause: JSONSchemaDescribed {
    /// `LaunchCause`.
    public static var schemaName: String? { "LaunchCause" }
    /// Why.
    public static var schemaDescription: String { "Why the app's process was started (--os ios)." }
}

extension AppPhase: JSONSchemaDescribed {
    /// `AppPhase`.
    public static var schemaName: String? { "AppPhase" }
    /// Where.
    public static var schemaDescription: String { "Where the app's process is in its life (--os ios)." }
}

extension LaunchFactor: JSONSchemaDescribed {
    /// `LaunchFactor`.
    public static var schemaName: String? { "LaunchFactor" }
    /// One factor.
    public static var schemaDescription: String { "One thing that keeps a request from running now." }
}

extension LaunchExplanation.Status: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "Where it stands." }
}

extension IOSConditions: JSONSchemaDescribed {
    /// Written where used (flattened into ``Conditions``).
    public static var schemaDescription: String { "The conditions --os ios adds." }
    /// The battery's range.
    public static var memberNotes: [String: JSONMemberNote] {
        ["batteryLevel": JSONMemberNote(nil, ["minimum": 0, "maximum": 1])]
    }
}

extension AppStatus: JSONSchemaDescribed {
    /// `AppStatus`.
    public static var schemaName: String? { "AppStatus" }
    /// The app's process.
    public static var schemaDescription: String { "The app's process (--os ios)." }
    /// A count.
    public static var memberNotes: [String: JSONMemberNote] { ["launches": .count] }
}

extension AppStatus.Termination: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "How the last process ended." }
}

extension LaunchReason: JSONSchemaDescribed {
    /// `LaunchReason`.
    public static var schemaName: String? { "LaunchReason" }
    /// One reason.
    public static var schemaDescription: String { "One reason a request is not running now." }
}

extension LaunchExplanation: JSONSchemaDescribed {
    /// `LaunchExplanation`.
    public static var schemaName: String? { "LaunchExplanation" }
    /// Why and when.
    public static var schemaDescription: String { "Why a request is not running now, and when it could." }
}

extension IOSStateSnapshot: JSONSchemaDescribed {
    /// `IOSState`.
    public static var schemaName: String? { "IOSState" }
    /// `plugin/state`'s `ios`.
    public static var schemaDescription: String { "plugin/state's ios member (--os ios only)." }
}

extension IOSStateSnapshot.Energy: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The daily energy budget." }
    /// Counts.
    public static var memberNotes: [String: JSONMemberNote] {
        ["launchesAvailable": .count, "capacity": JSONMemberNote(nil, ["minimum": 1])]
    }
}

extension IOSStateSnapshot.RunningTask: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "The running task as the OS sees it." }
}

extension OSTerminate.Params: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "Why the process ends." }
    /// Only the two the host may cause.
    public static var memberNotes: [String: JSONMemberNote] {
        [
            "reason": JSONMemberNote(
                "system or forceQuit.",
                ["enum": [.string(TerminationReason.system.rawValue), .string(TerminationReason.forceQuit.rawValue)]])
        ]
    }
}

extension OSBlockMain.Result: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "When main became busy and when it is free." }
    /// Moments.
    public static var memberNotes: [String: JSONMemberNote] { ["blockedSince": .instant, "blockedUntil": .instant] }
}

extension AppState: JSONSchemaDescribed {
    /// `AppState`.
    public static var schemaName: String? { "AppState" }
    /// Where the app is.
    public static var schemaDescription: String { "Where the app is, as iOS sees it (--os ios with appStates)." }
}

extension AppStateChange: JSONSchemaDescribed {
    /// `AppStateChange`.
    public static var schemaName: String? { "AppStateChange" }
    /// The state and since when.
    public static var schemaDescription: String {
        "The state the app is in now, since when; the task whose launch woke it."
    }
    /// A moment.
    public static var memberNotes: [String: JSONMemberNote] { ["at": .instant] }
}
