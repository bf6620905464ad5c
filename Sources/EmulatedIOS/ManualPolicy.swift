import HostProtocol

/// `--os manual`, the contract's OS: it acts only on `os/` controls, and launches by itself
/// only under `autoLaunch` (the earliest pending request whose handler is registered and
/// whose constraints hold, at its `earliestBeginDate`). No budget, no watchdog, no
/// lifecycle: the app's first process runs for the whole session.
///
/// ```swift
/// let os = EmulatedOS(clock: clock, infoPlist: plist, events: sink, faults: .none)
/// os.policy is ManualPolicy  // true
/// ```
package final class ManualPolicy: OSPolicy {
    /// A policy with nothing to remember.
    package init() {}

    package var advanceEventBound: Int { EmulatedOS.maxEventsPerAdvance }
    package var finishesInstant: Bool { false }
    package var neverDueAtClockLimit: Bool { false }
    package var reportsExpirationCause: Bool { false }

    package func install(on os: EmulatedOS) {}

    package func prepareLaunch(of identifier: String, in os: EmulatedOS) throws(RPCError) {}

    package func taskLaunched(_ task: BGTask, request: BGTaskRequest, in os: EmulatedOS) {}

    package func taskExpiring(_ task: BGTask, in os: EmulatedOS) {}

    package func expirationHandlerReturned(_ task: BGTask, in os: EmulatedOS) {}

    package func taskEnded(_ task: BGTask, in os: EmulatedOS) {}

    /// One task at a time (the contract's one-active rule).
    package var maxConcurrentTasks: Int? { 1 }

    package func addDueEvents(of os: EmulatedOS, to candidates: inout [EmulatedOS.Due]) {
        if let launch = nextAutoLaunch(in: os) {
            candidates.append(EmulatedOS.Due(at: launch.at, event: .launch(launch.identifier)))
        }
    }

    package func launchDue(_ identifier: String, in os: EmulatedOS) {
        os.launchPending(identifier)
    }

    /// The next request `autoLaunch` would launch, and when.
    private func nextAutoLaunch(in os: EmulatedOS) -> (identifier: String, at: VirtualTime)? {
        guard os.conditions.autoLaunch, os.runningTask == nil else { return nil }
        let now = os.clock.now
        var best: (identifier: String, at: VirtualTime, rank: Int)?
        for request in os.store.pendingTaskRequests {
            // A request `os/submit` made for an identifier with no launch handler is
            // never launched (Apple's system would crash the app; `os/launch` says -32602).
            guard os.scheduler.registrations[request.identifier] != nil else { continue }
            if let processing = request as? BGProcessingTaskRequest, !processing.constraintsMet(by: os.conditions),
                !os.faults.contains(.autoLaunchIgnoresConstraints)
            {
                continue
            }
            let at = max(request.earliestBeginDate ?? now, now)
            let rank = request.kind == .refresh ? 0 : 1
            if let b = best, (b.at, b.rank) <= (at, rank) { continue }
            best = (request.identifier, at, rank)
        }
        return best.map { ($0.identifier, $0.at) }
    }
}
