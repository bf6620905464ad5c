import HostProtocol

/// The emulated `Timer`: a one-shot or repeating timer on the plugin's clock.
///
/// Mirrors Foundation's rules that the seed relies on: an interval <= 0 becomes
/// 0.1 ms; a non-repeating timer is invalid once it has fired; `invalidate()` on
/// an invalid timer does nothing.
package final class EmulatedTimer {
    /// The time it fires next.
    package private(set) var fireDate: VirtualTime
    package let interval: Int64
    package let repeats: Bool
    /// Creation order, for firing ties.
    package let sequence: UInt64
    package private(set) var isValid = true
    private let block: (EmulatedTimer) -> Void
    /// Told of `started`, `fired` and `invalidated` (the safety timer reports these as events).
    private let observer: ((SafetyTimerEvent.State, VirtualTime) -> Void)?

    /// Foundation substitutes 0.1 ms for a non-positive interval.
    package static let minimumIntervalNanoseconds: Int64 = 100_000

    package init(
        fireDate: VirtualTime, interval: Int64, repeats: Bool, sequence: UInt64,
        observer: ((SafetyTimerEvent.State, VirtualTime) -> Void)?, block: @escaping (EmulatedTimer) -> Void
    ) {
        self.fireDate = fireDate
        self.interval = interval
        self.repeats = repeats
        self.sequence = sequence
        self.observer = observer
        self.block = block
        observer?(.started, fireDate)
    }

    /// Stops the timer; reports `invalidated` only when it was still valid.
    package func invalidate() {
        guard isValid else { return }
        isValid = false
        observer?(.invalidated, fireDate)
    }

    /// `invalidate()` sent from a thread other than the one the timer was scheduled on: Apple's
    /// documentation says the timer may then not be removed from its run loop. `removed`
    /// invalidates it as `invalidate()` does; otherwise it stays valid and still fires at its
    /// deadline, and nothing is reported (the contract's `invalidated` means a timer that
    /// stopped; this one did not).
    package func invalidateOffThread(_ outcome: TimerInvalidation) {
        if outcome == .removed { invalidate() }
    }

    /// Called by the run loop at `fireDate`.
    package func fire() {
        guard isValid else { return }
        let firedAt = fireDate
        if repeats {
            // A repeat past the clock's limit never comes (see `scheduledTimer`).
            let (next, overflow) = fireDate.nanoseconds.addingReportingOverflow(interval)
            if overflow || next > VirtualTime.limit {
                isValid = false
            } else {
                fireDate = VirtualTime(nanoseconds: next)
            }
        } else {
            isValid = false
        }
        observer?(.fired, firedAt)
        block(self)
    }
}
