import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin
@testable import EmulatedIOS

/// The emulated run loop's timers and `EmulatedOS.advance(to:)`'s ordering.
@Suite("unit: timer run loop")
struct TimerRunLoopUnitTests {
    /// Foundation's rule: an interval <= 0 (or not finite) becomes 0.1 ms.
    @Test(arguments: [0.0, -5.0, -0.0, Double.nan, -Double.infinity])
    func nonPositiveIntervalBecomesATenthOfAMillisecond(interval: Double) {
        let loop = TimerRunLoop(clock: virtualClock())
        let timer = loop.scheduledTimer(withTimeInterval: interval, repeats: false) { _ in }
        #expect(timer.fireDate == VirtualTime(nanoseconds: 100_000))
        #expect(timer.interval == EmulatedTimer.minimumIntervalNanoseconds)
    }

    @Test func positiveIntervalIsExactToTheNanosecond() {
        let loop = TimerRunLoop(clock: virtualClock())
        #expect(
            loop.scheduledTimer(withTimeInterval: 28, repeats: false) { _ in }.fireDate
                == VirtualTime(nanoseconds: 28_000_000_000))
        #expect(
            loop.scheduledTimer(withTimeInterval: 1e-9, repeats: false) { _ in }.fireDate == VirtualTime(nanoseconds: 1)
        )
    }

    /// Timers fire in deadline order, ties in creation order, each at its own deadline.
    @Test func deadlineOrderTiesInCreationOrder() {
        let os = makeOS(EventRecorder())
        var fired: [(String, VirtualTime)] = []
        for (name, interval) in [("a", 5.0), ("b", 1.0), ("c", 5.0), ("d", 3.0), ("e", 1.0), ("f", 0.0), ("g", -1.0)] {
            os.runLoop.scheduledTimer(withTimeInterval: interval, repeats: false) { _ in
                fired.append((name, os.clock.now))
            }
        }
        os.advance(to: seconds(10))
        #expect(fired.map(\.0) == ["f", "g", "b", "e", "d", "a", "c"])
        #expect(fired.map(\.1) == [0.0001, 0.0001, 1, 1, 3, 5, 5].map(seconds))
        #expect(os.clock.now == seconds(10))
    }

    /// A timer created by a firing timer for the same instant fires after the ones
    /// already due then (creation order), within the same advance.
    @Test func timerScheduledWhileFiringJoinsTheQueue() {
        let os = makeOS(EventRecorder())
        var fired: [String] = []
        os.runLoop.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in
            fired.append("first")
            os.runLoop.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in fired.append("chained") }
        }
        os.runLoop.scheduledTimer(withTimeInterval: 2, repeats: false) { _ in fired.append("second") }
        os.advance(to: seconds(2))
        #expect(fired == ["first", "second", "chained"])
    }

    /// invalidate: the timer never fires; `invalidated` is reported only while valid.
    @Test func invalidateReportsOnceAndStopsTheTimer() {
        let loop = TimerRunLoop(clock: virtualClock())
        var states: [SafetyTimerEvent.State] = []
        var fires = 0
        let timer = loop.scheduledTimer(
            withTimeInterval: 1, repeats: false, observer: { state, _ in states.append(state) },
            block: { _ in fires += 1 })
        timer.invalidate()
        timer.invalidate()
        timer.fire()
        #expect(fires == 0)
        #expect(states == [.started, .invalidated])
        #expect(loop.nextTimer() == nil)
    }

    /// A fired one-shot timer is invalid: invalidating it reports nothing.
    @Test func invalidateAfterFireReportsNothing() {
        let loop = TimerRunLoop(clock: virtualClock())
        var states: [SafetyTimerEvent.State] = []
        let timer = loop.scheduledTimer(
            withTimeInterval: 1, repeats: false, observer: { state, _ in states.append(state) }, block: { _ in })
        timer.fire()
        timer.invalidate()
        #expect(states == [.started, .fired])
        #expect(!timer.isValid)
    }

    /// Repeating timers fire every interval.
    @Test func repeatingTimer() {
        let os = makeOS(EventRecorder())
        var at: [VirtualTime] = []
        os.runLoop.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in at.append(os.clock.now) }
        os.advance(to: seconds(7))
        #expect(at == [2, 4, 6].map(seconds))
    }

    /// At the clock's limit a timer's deadline cannot lie in the future: it never
    /// fires (it must not fire again and again at the same instant).
    @Test func timerBeyondTheClockLimitNeverFires() {
        let os = makeOS(EventRecorder())
        os.advance(to: VirtualTime(nanoseconds: VirtualTime.limit))
        var fires = 0
        os.runLoop.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in fires += 1 }
        os.advance(to: VirtualTime(nanoseconds: VirtualTime.limit))
        #expect(fires == 0)
        #expect(os.runLoop.nextTimer() == nil)
    }

    /// An interval so long that it is clamped (1e300 s) lands on the limit: from time 0 as
    /// from any other time, such a timer never fires.
    @Test(arguments: [0.0, 5.0])
    func aClampedDeadlineNeverFires(startSeconds: Double) {
        let os = makeOS(EventRecorder())
        os.advance(to: seconds(startSeconds))
        var fires = 0
        os.runLoop.scheduledTimer(withTimeInterval: 1e300, repeats: false) { _ in fires += 1 }
        os.advance(to: VirtualTime(nanoseconds: VirtualTime.limit))
        #expect(fires == 0)
        #expect(os.clock.now.nanoseconds == VirtualTime.limit)
    }

    /// At equal times timers fire before launches (auto-launch), even with no task running.
    @Test func timersFireBeforeLaunchesAtEqualTimes() throws {
        let os = makeOS(EventRecorder())
        var order: [String] = []
        try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { task in
            order.append("launch \(os.clock.now.decimalSeconds)")
            task.setTaskCompleted(success: true)
        }
        try os.scheduler.submit(refreshRequest(at: 10))
        _ = os.setConditions(.init(autoLaunch: true))
        os.runLoop.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in
            order.append("timer \(os.clock.now.decimalSeconds)")
        }
        os.advance(to: seconds(20))
        #expect(order == ["timer 10", "launch 10"])
    }
}
