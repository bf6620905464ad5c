import HostProtocol

/// What the `--os ios` system remembers beyond the app's process: the policy and its
/// seeded generator, the energy budget, recent launches, the force-quit mark, each
/// running task's budget and watchdog deadlines, and the app's life so far.
///
/// Reset (`plugin/reset`) builds a new one from the same seed.
package final class IOSSystem {
    package var policy = IOSPolicy.defaults
    /// Every random draw of the policy comes from here, in input order.
    package var rng: SplitMix64
    package let seed: UInt64
    package var energy: EnergyBudget
    /// The last launch of each identifier (rate limiting).
    package var lastLaunch: [String: VirtualTime] = [:]
    /// Set by a force-quit; cleared when the user opens the app.
    package var forceQuit = false
    /// Each running task's budget, expiration and watchdog deadlines, by its serial.
    package var running: [UInt64: RunningTaskTimes] = [:]
    /// How the last process ended.
    package var lastTermination: AppStatus.Termination?
    /// Processes started (the first included).
    package var launches = 1
    /// The events one advance performs before stopping at an instant's end
    /// (``EmulatedOS/maxEventsPerAdvanceIOS``; lower in tests, `--ios-advance-event-bound`).
    package var eventBound = EmulatedOS.maxEventsPerAdvanceIOS
    /// The app's state under the policy's `appStates` (``AppLife``).
    package var life = AppLife()
    /// When the user last used the app (`EmulatedOS+Usage.swift`): the start counts as a use.
    package var lastUsedAt = VirtualTime.zero

    /// A fresh system: the policy starts from `defaults` (`--ios-defaults`).
    package init(seed: UInt64, defaults: IOSDefaults = .device) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        policy = defaults == .device ? .defaults : .legacy
        energy = EnergyBudget(capacity: policy.energyBudgetLaunches, at: .zero)
    }

    /// A running task ended (completed or killed): forget its deadlines.
    package func taskEnded(_ task: BGTask) {
        running[task.serial] = nil
    }

    /// A uniform draw of whole milliseconds between two second values, as nanoseconds.
    package func drawMilliseconds(from low: Double, to high: Double) -> Int64 {
        let lo = Int64((low * 1000).rounded())
        let hi = max(lo, Int64((high * 1000).rounded()))
        return rng.uniform(in: lo...hi) * 1_000_000
    }

    /// Plans an accepted request: never before its `earliestBeginDate` (nor before
    /// now), usually later by a delay drawn uniformly from the kind's range.
    package func plan(_ request: BGTaskRequest, at now: VirtualTime) -> LaunchPlan {
        let base = max(request.earliestBeginDate ?? now, now)
        let delay =
            request.kind == .refresh
            ? drawMilliseconds(from: policy.refreshDelayMinSecs, to: policy.refreshDelayMaxSecs)
            : drawMilliseconds(from: policy.processingDelayMinSecs, to: policy.processingDelayMaxSecs)
        return LaunchPlan(plannedAt: base.adding(nanoseconds: delay))
    }
}
