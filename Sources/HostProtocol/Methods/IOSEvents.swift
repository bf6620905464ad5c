/// `os/appLaunched` (`--os ios`): the app's process started (`cause`, `at`, and for
/// a cold start into the background the task's `identifier`), before anything runs in it.
public enum AppLaunchedEvent: RPCEvent {
    public static let name = "os/appLaunched"

    /// `{cause, at, identifier?}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// Why it started: the user, or a background task.
        public var cause: LaunchCause
        /// When.
        public var at: VirtualTime
        /// `backgroundTask` only: the task the system launches the app for.
        public var identifier: String?

        /// The event's params.
        public init(cause: LaunchCause, at: VirtualTime, identifier: String? = nil) {
            self.cause = cause
            self.at = at
            self.identifier = identifier
        }
    }
}

/// `os/appTerminated` (`--os ios`): the app's process ended (`reason`, `at`, and the
/// `identifier` of the task that was running, if one was; for a `crash`, the uncaught
/// `exception` and its `message`). Written before the pending invokes are answered `terminated`.
public enum AppTerminatedEvent: RPCEvent {
    public static let name = "os/appTerminated"

    /// `{reason, at, identifier?, exception?, message?}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// Why it ended.
        public var reason: TerminationReason
        /// When.
        public var at: VirtualTime
        /// The task that was running, if one was.
        public var identifier: String?
        /// `crash` only: the uncaught exception's name (`NSInternalInconsistencyException`).
        public var exception: String?
        /// `crash` only: the exception's reason, in Apple's words.
        public var message: String?

        /// The event's params.
        public init(
            reason: TerminationReason, at: VirtualTime, identifier: String? = nil, exception: String? = nil,
            message: String? = nil
        ) {
            self.reason = reason
            self.at = at
            self.identifier = identifier
            self.exception = exception
            self.message = message
        }
    }
}

/// `os/launchDeferred` (`--os ios`): a request's planned launch time came and it
/// could not launch (`identifier`, `at`, `reasons`, `nextPossibleAt`, as `os/explain`
/// gives them). Sent once per submitted request.
public enum LaunchDeferredEvent: RPCEvent {
    public static let name = "os/launchDeferred"

    /// `{identifier, at, reasons, nextPossibleAt}`.
    public struct Params: JSONCodable, Codable, Hashable {
        /// The request's identifier.
        public var identifier: String
        /// When its planned time came.
        public var at: VirtualTime
        /// Every reason it could not launch, in `os/explain`'s order.
        public var reasons: [LaunchReason]
        /// When it could launch if only the clock moves; nil when it waits for something else.
        @ExplicitNull public var nextPossibleAt: VirtualTime?

        /// The event's params.
        public init(identifier: String, at: VirtualTime, reasons: [LaunchReason], nextPossibleAt: VirtualTime?) {
            self.identifier = identifier
            self.at = at
            self.reasons = reasons
            self.nextPossibleAt = nextPossibleAt
        }
    }
}
