import HostProtocol

/// "Why has my task not run?" under `--os ios`: `os/explain` and `os/launchDeferred`,
/// both from the launch decision's own evaluation (``EmulatedOS/evaluate(_:)``).
extension EmulatedOS {
    /// `os/explain`: every reason the identifier's request is not running now, and
    /// when it could next run. Never an error for a string identifier: one with no
    /// request gets the factor `notPending`.
    package func explain(_ identifier: String) -> LaunchExplanation {
        if runningTask(identifier) != nil {
            return LaunchExplanation(identifier: identifier, status: .running, reasons: [], nextPossibleAt: nil)
        }
        guard let request = store.pendingRequest(identifier) else {
            // An identifier the running app never registered is likely a typo: say which it did.
            let unknown = app.isRunning && scheduler.registrations[identifier] == nil
            let reason = LaunchReason(
                factor: .notPending,
                detail: "no request for \(identifier) is pending; the app must submit one"
                    + (unknown ? " (\(identifier) is not registered; \(registeredList))" : ""))
            return LaunchExplanation(
                identifier: identifier, status: .notPending, reasons: [reason], nextPossibleAt: nil)
        }
        let evaluation = evaluate(request)
        return LaunchExplanation(
            identifier: identifier, status: .pending,
            reasons: evaluation.reasons + [crashForecast(request), coldStartNote()].compactMap(\.self),
            nextPossibleAt: evaluation.launchAt,
            earliestBeginDate: request.earliestBeginDate, plannedAt: request.plan?.plannedAt)
    }

    /// A request's planned time came: when it cannot launch now, say why, once per
    /// submitted request (`os/launchDeferred`).
    package func reportDeferral(of identifier: String) {
        guard let request = store.pendingRequest(identifier), var plan = request.plan else { return }
        plan.deferralReported = true
        request.plan = plan
        let evaluation = evaluate(request)
        guard evaluation.launchAt != clock.now, !evaluation.reasons.isEmpty else { return }
        events.send(
            LaunchDeferredEvent.self,
            .init(
                identifier: identifier, at: clock.now, reasons: evaluation.reasons,
                nextPossibleAt: evaluation.launchAt))
    }
}
