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

/// The emulated main run loop's timer list: fires timers in deadline order, ties
/// in creation order.
package final class TimerRunLoop {
    private var timers: [EmulatedTimer] = []
    private var nextSequence: UInt64 = 0
    private let clock: PluginClock
    /// Added to every deadline; nonzero only under the `timer-one-tick-late` fault.
    package var lateByNanoseconds: Int64 = 0

    package init(clock: PluginClock) {
        self.clock = clock
    }

    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)` on this run loop.
    @discardableResult
    package func scheduledTimer(
        withTimeInterval seconds: Double, repeats: Bool,
        observer: ((SafetyTimerEvent.State, VirtualTime) -> Void)? = nil, block: @escaping (EmulatedTimer) -> Void
    ) -> EmulatedTimer {
        var interval = VirtualTime.nanoseconds(fromSeconds: seconds) ?? EmulatedTimer.minimumIntervalNanoseconds
        if interval <= 0 { interval = EmulatedTimer.minimumIntervalNanoseconds }
        nextSequence += 1
        let timer = EmulatedTimer(
            fireDate: clock.now.adding(nanoseconds: interval + lateByNanoseconds), interval: interval, repeats: repeats,
            sequence: nextSequence, observer: observer, block: block)
        timers.append(timer)
        // A deadline that reaches the clock's limit is a clamped one (1e300 s), and the
        // clock never gets beyond the limit: such a timer never fires (else, at the limit, a timer could fire
        // at the very instant it was scheduled, again and again).
        let (deadline, overflow) = clock.now.nanoseconds.addingReportingOverflow(interval + lateByNanoseconds)
        if overflow || deadline >= VirtualTime.limit { beyondLimit.insert(nextSequence) }
        return timer
    }

    /// Timers (by sequence) whose deadline lies beyond the clock's limit.
    private var beyondLimit: Set<UInt64> = []

    /// The valid timer that fires first (earliest deadline, then earliest created).
    package func nextTimer() -> EmulatedTimer? {
        timers.removeAll { !$0.isValid }
        return timers.filter { !beyondLimit.contains($0.sequence) }
            .min { ($0.fireDate, $0.sequence) < ($1.fireDate, $1.sequence) }
    }
}
