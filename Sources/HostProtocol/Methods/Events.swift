/// `os/requestSubmitted`: a request was accepted by the scheduler (params: the request).
public enum RequestSubmittedEvent: RPCEvent {
    public static let name = "os/requestSubmitted"
    public typealias Params = TaskRequestInfo
}

/// `os/submitFailed`: a submission failed (`identifier`, `error`).
public enum SubmitFailedEvent: RPCEvent {
    public static let name = "os/submitFailed"

    /// `{identifier, error}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// The request's identifier.
        public var identifier: String
        /// The scheduler's error.
        public var error: SchedulerErrorKind

        /// The event's params.
        public init(identifier: String, error: SchedulerErrorKind) {
            self.identifier = identifier
            self.error = error
        }
    }
}

/// `os/requestCancelled`: a pending request was removed by `cancel` (`identifier`).
public enum RequestCancelledEvent: RPCEvent {
    public static let name = "os/requestCancelled"
    public typealias Params = IdentifierParams
}

/// A task event's params: `identifier`, `at`, and for some `kind`, `success` or `cause`.
public struct TaskEventParams: JSONCodable, Codable, Hashable {
    /// The task's identifier.
    public var identifier: String
    /// When it happened.
    public var at: VirtualTime
    /// `os/taskLaunched` only.
    public var kind: TaskKind?
    /// `os/taskCompleted` only.
    public var success: Bool?
    /// `os/taskExpired` under `--os ios` only: why the OS expired the task.
    public var cause: ExpirationCause?

    /// Task event params; give only the event's own members.
    public init(
        identifier: String, at: VirtualTime, kind: TaskKind? = nil, success: Bool? = nil, cause: ExpirationCause? = nil
    ) {
        self.identifier = identifier
        self.at = at
        self.kind = kind
        self.success = success
        self.cause = cause
    }

}

/// `os/taskLaunched`: the OS launched a task (`identifier`, `kind`, `at`).
public enum TaskLaunchedEvent: RPCEvent {
    public static let name = "os/taskLaunched"
    public typealias Params = TaskEventParams
}

/// `os/taskExpired`: the OS ran a task's expiration handler (`identifier`, `at`;
/// under `--os ios` also `cause`).
public enum TaskExpiredEvent: RPCEvent {
    public static let name = "os/taskExpired"
    public typealias Params = TaskEventParams
}

/// `os/taskCompleted`: `setTaskCompleted` was called for the first time (`identifier`, `success`, `at`).
public enum TaskCompletedEvent: RPCEvent {
    public static let name = "os/taskCompleted"
    public typealias Params = TaskEventParams
}

/// `os/violation`: a rule was broken and the offending action ignored (`rule`, `detail`).
public enum ViolationEvent: RPCEvent {
    public static let name = "os/violation"

    /// `{rule, detail}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// The rule's name (`exactly-once`, `invoke.answered-once`).
        public var rule: String
        /// What happened.
        public var detail: String

        /// The event's params.
        public init(rule: String, detail: String) {
            self.rule = rule
            self.detail = detail
        }
    }
}

/// `plugin/safetyTimer`: the safety timer `started`, `fired` or was `invalidated` (`state`, `deadline`).
public enum SafetyTimerEvent: RPCEvent {
    public static let name = "plugin/safetyTimer"

    /// The timer's transition.
    public enum State: String, JSONStringEnum, Hashable {
        /// The timer was scheduled.
        case started
        /// The timer fired at its deadline.
        case fired
        /// The timer was invalidated before firing.
        case invalidated
    }

    /// `{state, deadline}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// Started, fired or invalidated.
        public var state: State
        /// The timer's deadline.
        public var deadline: VirtualTime

        /// The event's params.
        public init(state: State, deadline: VirtualTime) {
            self.state = state
            self.deadline = deadline
        }
    }
}

extension SchedulerErrorKind: JSONStringEnum {}
