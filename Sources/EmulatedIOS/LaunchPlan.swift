import HostProtocol

/// The system's plan for one accepted request (`--os ios`): when it means to launch it.
package struct LaunchPlan: Equatable {
    /// `earliestBeginDate` (or the submission time, if later or absent) plus the drawn delay.
    package let plannedAt: VirtualTime
    /// Whether `os/launchDeferred` has been sent for it.
    package var deferralReported = false
}
