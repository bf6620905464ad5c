import HostProtocol

/// What the emulated OS does differently under `--os manual` and `--os ios`: one
/// interface, two policies.
///
/// ``EmulatedOS`` holds the mechanism both modes share (the pending requests, the
/// running tasks, launching and expiring it, the app's processes, the advance loop) and
/// asks its policy at each point where the two differ. ``ManualPolicy`` is the
/// contract's OS, which acts only when told (and launches by itself only under
/// `autoLaunch`); ``IOSSystem`` adds iOS's own decisions: planned launch times, runtime
/// budgets, the watchdog, cold starts. The iOS-only controls (`os/terminate`,
/// `os/openApp`, `os/explain`, `os/setPolicy`, the device members of
/// `os/setConditions`) exist only under `--os ios` and reach the iOS policy as
/// ``EmulatedOS/ios``.
///
/// ```swift
/// let os = EmulatedOS(clock: clock, infoPlist: plist, events: sink, faults: .none, ios: IOSSystem(seed: 7))
/// os.policy.finishesInstant  // true: an advance stops only between instants
/// ```
package protocol OSPolicy: AnyObject {
    /// The events one advance performs before it may stop.
    var advanceEventBound: Int { get }
    /// Whether an advance that reached its bound still runs the events due at the same
    /// instant (up to twice the bound), so that it stops between instants.
    var finishesInstant: Bool { get }
    /// Whether an event due at the clock's limit is never due (it would be due again at once).
    var neverDueAtClockLimit: Bool { get }
    /// Whether `os/expired` carries the expiration's cause.
    var reportsExpirationCause: Bool { get }

    /// Sets the OS up once it is built (the device's defaults, planning accepted requests).
    func install(on os: EmulatedOS)
    /// `os/launch` of `identifier` is about to run: makes sure an app process is there
    /// to run it; throws what keeps it from being launched.
    func prepareLaunch(of identifier: String, in os: EmulatedOS) throws(RPCError)
    /// A task was launched, before its launch handler runs.
    func taskLaunched(_ task: BGTask, request: BGTaskRequest, in os: EmulatedOS)
    /// A running task is about to be expired (its handler runs next).
    func taskExpiring(_ task: BGTask, in os: EmulatedOS)
    /// A running task's expiration handler returned and the task is still running.
    func expirationHandlerReturned(_ task: BGTask, in os: EmulatedOS)
    /// A running task ended (completed, or its process killed).
    func taskEnded(_ task: BGTask, in os: EmulatedOS)
    /// Adds what the policy will do by itself, and when, to `candidates` (the OS adds the app's timers).
    func addDueEvents(of os: EmulatedOS, to candidates: inout [EmulatedOS.Due])
    /// A launch the policy scheduled (``EmulatedOS/Autonomous/launch(_:)``) is due now.
    func launchDue(_ identifier: String, in os: EmulatedOS)
    /// How many tasks may run at once (nil: no limit; `--os manual`: 1, the contract's one-active rule).
    var maxConcurrentTasks: Int? { get }
}
