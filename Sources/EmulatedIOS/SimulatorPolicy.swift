import HostProtocol

/// `--os simulator`: the OS of the iOS Simulator, where background tasks never run by
/// themselves (issue 23; `docs/rules.md`, **simulator.unavailable**).
///
/// Apple's `BGTaskScheduler.Error.Code.unavailable`: "This error usually occurs for one of
/// following reasons: … The app is running on Simulator which doesn't support background
/// processing." So every `submit` fails with `unavailable` (`os/submitFailed`), nothing is
/// ever pending, and the system launches nothing. Only the debugger's commands act: `os/launch`
/// (`_simulateLaunchForTaskWithIdentifier:`) launches a registered identifier, with no pending
/// request needed, as a task of the kind its handler was registered for, and `os/expire`
/// (`_simulateExpirationForTaskWithIdentifier:`) expires it. Otherwise as `--os manual`: no
/// budgets, no watchdog, no lifecycle.
///
/// ```swift
/// let os = EmulatedOS(clock: clock, infoPlist: plist, events: sink, faults: .none, policy: SimulatorPolicy())
/// try os.scheduler.submit(request)  // throws .unavailable
/// ```
package final class SimulatorPolicy: OSPolicy {
    private let manual = ManualPolicy()

    /// A policy with nothing to remember.
    package init() {}

    package var advanceEventBound: Int { EmulatedOS.maxEventsPerAdvance }
    package var finishesInstant: Bool { false }
    package var neverDueAtClockLimit: Bool { false }
    package var reportsExpirationCause: Bool { false }

    /// Every submission fails with `unavailable`.
    package func install(on os: EmulatedOS) {
        os.store.simulatorRefusesSubmissions = true
    }

    /// The debugger's launch needs no pending request: one of the registered kind is placed
    /// for it (no event: the Simulator's scheduler never accepted one).
    package func prepareLaunch(of identifier: String, in os: EmulatedOS) throws(RPCError) {
        guard os.store.pendingRequest(identifier) == nil, let registration = os.scheduler.registrations[identifier]
        else { return }
        let request: BGTaskRequest =
            registration.kind == .processing
            ? BGProcessingTaskRequest(identifier: identifier) : BGAppRefreshTaskRequest(identifier: identifier)
        os.store.placeForSimulatedLaunch(request)
    }

    package func taskLaunched(_ task: BGTask, request: BGTaskRequest, in os: EmulatedOS) {}

    package func taskExpiring(_ task: BGTask, in os: EmulatedOS) {}

    package func expirationHandlerReturned(_ task: BGTask, in os: EmulatedOS) {}

    package func taskEnded(_ task: BGTask, in os: EmulatedOS) {}

    /// The app's timers only (the OS adds them): the system launches nothing.
    package func addDueEvents(of os: EmulatedOS, to candidates: inout [EmulatedOS.Due]) {}

    package func launchDue(_ identifier: String, in os: EmulatedOS) { manual.launchDue(identifier, in: os) }

    /// One task at a time, as `--os manual`.
    package var maxConcurrentTasks: Int? { 1 }
}
