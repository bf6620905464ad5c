import HostProtocol

/// `--os ios`: the policy that decides by itself (`docs/protocol.md`, "--os ios").
///
/// Launches at a planned time when every factor allows (``EmulatedOS/evaluate(_:)``),
/// cold-starting the app when it is not running; a launched task gets a runtime budget
/// and spends energy; a task still running after its expiration handler arms the
/// watchdog. The iOS-only controls are ``EmulatedOS`` extensions that use this state.
extension IOSSystem: OSPolicy {
    package var advanceEventBound: Int { eventBound }
    package var finishesInstant: Bool { true }
    package var neverDueAtClockLimit: Bool { true }
    package var reportsExpirationCause: Bool { true }

    /// The device starts with the iOS members of the conditions, no watchdog kill yet, and
    /// every accepted request gets its launch plan.
    package func install(on os: EmulatedOS) {
        os.device.conditions = .iosDefaults
        os.events.counters.watchdogKills = 0
        os.events.counters.crashes = 0
        os.store.didAccept = { [unowned os, self] request in request.plan = self.plan(request, at: os.clock.now) }
    }

    /// With the app not running, `os/launch` cold-starts it first (for a pending request only).
    package func prepareLaunch(of identifier: String, in os: EmulatedOS) throws(RPCError) {
        guard !os.app.isRunning else { return }
        guard os.store.pendingRequest(identifier) != nil else {
            throw RPCError.invalidState("cannot launch \(identifier): no request for it is pending")
        }
        os.coldStart(for: identifier)
        if os.loseLaunchAfterCrash(of: identifier) || os.launchWithoutHandler(identifier) {
            let how = os.ios?.lastTermination.map { "at \($0.at.decimalSeconds) s" } ?? ""
            throw RPCError.invalidState(
                "cannot launch \(identifier): the app was launched for it and crashed \(how) "
                    + "(\(os.app.registrationError ?? SchedulerMisuse.noHandler(identifier).message)); "
                    + "the launch is lost"
            )
        }
        guard os.scheduler.registrations[identifier] != nil else {
            throw RPCError.invalidState(
                "cannot launch \(identifier): the app was launched for it but registered no launch handler"
                    + (os.app.registrationError.map { " (\($0))" } ?? ""))
        }
    }

    /// Starts a launched task's budget and spends the launch from the energy budget
    /// (any launch, `os/launch` included, uses energy and counts for rate limiting);
    /// see ``EmulatedOS`` "Runtime budgets" (`EmulatedOS+RuntimeBudget.swift`).
    package func taskLaunched(_ task: BGTask, request: BGTaskRequest, in os: EmulatedOS) {
        let now = os.clock.now
        os.wakeForLaunch(of: task)
        energy.spend(at: now)
        lastLaunch[task.identifier] = now
        let early = rng.chance(policy.refreshEarlyExpiryChance)
        let earlyBudget = drawMilliseconds(from: policy.refreshEarlyExpiryMinSecs, to: policy.refreshEarlyExpiryMaxSecs)
        let budget: Int64
        if task.kind == .refresh {
            budget = early ? earlyBudget : VirtualTime.nanoseconds(fromSeconds: policy.refreshBudgetSecs) ?? 0
        } else {
            budget = VirtualTime.nanoseconds(fromSeconds: policy.processingBudgetSecs) ?? 0
        }
        let constraints = (request as? BGProcessingTaskRequest).map {
            (power: $0.requiresExternalPower, network: $0.requiresNetworkConnectivity)
        }
        running[task.serial] = RunningTaskTimes(
            budgetDeadline: now.adding(nanoseconds: budget), constraints: constraints)
    }

    /// The task's budget is spent; the watchdog's grace counts from now.
    package func taskExpiring(_ task: BGTask, in os: EmulatedOS) {
        running[task.serial]?.budgetDeadline = nil
        running[task.serial]?.expiredAt = os.clock.now
    }

    /// Arms the task's watchdog (`EmulatedOS+Watchdog.swift`): `watchdogGraceSecs` from now.
    package func expirationHandlerReturned(_ task: BGTask, in os: EmulatedOS) {
        let grace = VirtualTime.nanoseconds(fromSeconds: policy.watchdogGraceSecs) ?? 0
        running[task.serial]?.watchdogDeadline = os.clock.now.adding(nanoseconds: grace)
    }

    /// Forgets a task's deadlines.
    package func taskEnded(_ task: BGTask, in os: EmulatedOS) {
        taskEnded(task)
        os.appStateTaskEnded()
    }

    /// The earliest watchdog and the earliest budget of the running tasks, and the next
    /// launch or deferral report.
    package func addDueEvents(of os: EmulatedOS, to candidates: inout [EmulatedOS.Due]) {
        if let t = earliest(\.watchdogDeadline, among: os.runningTasks) {
            candidates.append(EmulatedOS.Due(at: t.at, event: .watchdog))
        }
        if let t = earliest(\.budgetDeadline, among: os.runningTasks) {
            candidates.append(EmulatedOS.Due(at: t.at, event: .budget))
        }
        if let next = os.nextPolicyEvent() { candidates.append(next) }
        os.addAppStateDueEvents(to: &candidates)
    }

    /// The policy's limit (nil: none).
    package var maxConcurrentTasks: Int? { policy.maxConcurrentTasks }

    /// Launches a request the policy chose, cold-starting the app when it is not running.
    package func launchDue(_ identifier: String, in os: EmulatedOS) {
        guard os.store.pendingRequest(identifier) != nil else { return }
        if !os.app.isRunning {
            os.coldStart(for: identifier)
            if os.loseLaunchAfterCrash(of: identifier) { return }
        }
        if os.launchWithoutHandler(identifier) { return }
        guard os.scheduler.registrations[identifier] != nil else { return }
        os.launchPending(identifier)
    }
}
