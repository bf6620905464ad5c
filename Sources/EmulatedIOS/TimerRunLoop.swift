import HostProtocol

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
