import HostProtocol

/// Jetsam under `--os ios` with the policy's `appStates` (issue 23; `docs/rules.md`,
/// **ios.jetsam**): the system ends suspended apps to reclaim memory.
///
/// At each suspension the system draws, from the seeded generator, whether this suspension
/// ends in jetsam (`jetsamChance`, default 0.1) and when (uniformly, to the millisecond,
/// within `jetsamWithinSecs`, default 3600 s, of the suspension); both values are drawn at
/// every suspension, so one outcome never shifts later draws by a different amount. If the
/// app is still suspended then, its process ends: `os/appTerminated {reason: "jetsam"}`, the
/// invokes it held answered `terminated`, its timers gone. The pending requests stay; the next
/// launch is a cold start (`os/explain` says so beforehand: the factor `coldStart`). A wake
/// (a launch, `os/openApp`) before that time cancels it.
extension EmulatedOS {
    /// The suspension began: draws whether and when jetsam ends it.
    func drawJetsam() {
        guard let ios else { return }
        let hit = ios.rng.chance(ios.policy.effectiveJetsamChance)
        let delay = ios.drawMilliseconds(from: 0, to: ios.policy.effectiveJetsamWithinSecs)
        ios.life.jetsamAt = hit ? clock.now.adding(nanoseconds: delay) : nil
    }

    /// The jetsam, when one is drawn and the app is still suspended.
    func addJetsamDue(to candidates: inout [Due]) {
        guard isSuspended, let at = ios?.life.jetsamAt else { return }
        candidates.append(Due(at: at, event: .jetsam))
    }

    /// The jetsam is due: the system ends the suspended app.
    func jetsamFires() {
        guard isSuspended, ios?.life.jetsamAt != nil else { return }
        ios?.life.jetsamAt = nil
        terminateApp(reason: .jetsam)
    }

    /// `os/explain`'s note for a request whose launch will cold-start an app jetsam ended.
    func coldStartNote() -> LaunchReason? {
        guard !app.isRunning, let last = ios?.lastTermination, last.reason == .jetsam else { return nil }
        return LaunchReason(
            factor: .coldStart,
            detail: "the system terminated the suspended app at \(clockText(last.at)) to reclaim memory (jetsam); "
                + "the launch will cold-start it: a fresh process, the plugin's state at its defaults")
    }
}
