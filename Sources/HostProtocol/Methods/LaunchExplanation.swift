/// One reason a request is not running now: a factor, words for people, and the
/// time it stops holding when that is known from the clock alone.
///
/// ```json
/// {"detail":"energy budget exhausted until 06:00 (t=21600 s)","factor":"energyBudget","until":21600}
/// ```
public struct LaunchReason: JSONCodable, Codable, Hashable {
    /// Which factor (for programs).
    public var factor: LaunchFactor
    /// The same in words (for people).
    public var detail: String
    /// When a time-based factor stops holding; nil for a condition.
    public var until: VirtualTime?

    /// A reason; `until` only for a factor the clock alone ends.
    public init(factor: LaunchFactor, detail: String, until: VirtualTime? = nil) {
        self.factor = factor
        self.detail = detail
        self.until = until
    }

}

/// `os/explain`'s result: every reason the request is not running now, and the
/// earliest time it could launch if nothing but the clock changes (nil when it
/// waits for a condition, the running task, the user, or a submission).
public struct LaunchExplanation: JSONCodable, Codable, Hashable {
    /// Where the identifier's request stands.
    public enum Status: String, JSONStringEnum, Hashable {
        /// Submitted and waiting.
        case pending
        /// Launched and not completed.
        case running
        /// No request is pending and no task of it runs.
        case notPending
    }

    /// The identifier asked about.
    public var identifier: String
    /// Pending, running, or not pending.
    public var status: Status
    /// In the documented order (`docs/protocol.md`); empty when it runs or could launch now.
    public var reasons: [LaunchReason]
    /// When it launches if only the clock moves; nil when it waits for something else.
    @ExplicitNull public var nextPossibleAt: VirtualTime?
    /// The request's `earliestBeginDate`, when one is pending.
    public var earliestBeginDate: VirtualTime?
    /// When the system plans to launch it (`earliestBeginDate` plus its delay), when pending.
    public var plannedAt: VirtualTime?

    /// An explanation.
    public init(
        identifier: String, status: Status, reasons: [LaunchReason], nextPossibleAt: VirtualTime?,
        earliestBeginDate: VirtualTime? = nil, plannedAt: VirtualTime? = nil
    ) {
        self.identifier = identifier
        self.status = status
        self.reasons = reasons
        self.nextPossibleAt = nextPossibleAt
        self.earliestBeginDate = earliestBeginDate
        self.plannedAt = plannedAt
    }

}
