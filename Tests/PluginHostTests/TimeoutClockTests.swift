import Dispatch
import HostTestSupport
import Testing

@testable import PluginHost

/// The one thread of every call timeout (`TimeoutClock`): deadlines fire in their
/// order whatever the order they were armed in, and a cancelled one never fires.
@Suite("Call timeouts on one thread")
struct TimeoutClockTests {
    @Test func anEarlierDeadlineArmedLaterWakesTheThread() {
        let clock = TimeoutClock()
        let fired = Box<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let late = clock.schedule(afterNanoseconds: 3_600_000_000_000) { fired.update { $0.append("late") } }
        // The thread sleeps until the hour is up unless this wakes it.
        _ = clock.schedule(afterNanoseconds: 20_000_000) {
            fired.update { $0.append("soon") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(fired.get == ["soon"])
        #expect(clock.liveCount == 1)
        clock.cancel(late)
        #expect(clock.liveCount == 0)
    }

    @Test func aCancelledTimerNeverFiresAndItsHandlerIsReleased() {
        let clock = TimeoutClock()
        let fired = Box(0)
        let done = DispatchSemaphore(value: 0)
        var tokens: [UInt64] = []
        for _ in 0..<1_000 {
            tokens.append(clock.schedule(afterNanoseconds: 30_000_000) { fired.update { $0 += 1 } })
        }
        // A cancel that came too late (a starved run) says so, and its handler may run.
        let late = tokens.filter { !clock.cancel($0) }.count
        #expect(clock.liveCount == 0)
        // One left armed after them: by the time it fires, the cancelled ones would have.
        _ = clock.schedule(afterNanoseconds: 60_000_000) { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(fired.get <= late)
        #expect(late < tokens.count, "every cancel came after its deadline: nothing was tested")
    }

    @Test func noDeadlineFiresEarly() {
        let clock = TimeoutClock()
        let early = Box<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for milliseconds in [90, 30, 60] {
            let due = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
            _ = clock.schedule(afterNanoseconds: UInt64(milliseconds) * 1_000_000) {
                if DispatchTime.now().uptimeNanoseconds < due { early.update { $0.append(milliseconds) } }
                done.signal()
            }
        }
        for _ in 0..<3 { #expect(done.wait(timeout: .now() + 60) == .success) }
        #expect(early.get.isEmpty)
    }
}
