import Dispatch
import HostTestSupport
import Testing

@testable import PluginHost

/// The one thread of every call timeout (`TimeoutClock`): an earlier deadline wakes it
/// however late the one it sleeps until, a cancelled timer never fires and lets go of
/// its handler, and no deadline fires early.
@Suite("Call timeouts on one thread")
struct TimeoutClockTests {
    @Test func anEarlierDeadlineArmedWhileTheThreadSleepsWakesIt() {
        let asleep = Box<[UInt64?]>([])
        let slept = DispatchSemaphore(value: 0)
        let clock = TimeoutClock(onSleep: { until in
            asleep.update { $0.append(until) }
            slept.signal()
        })
        let fired = Box<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let late = clock.schedule(afterNanoseconds: 3_600_000_000_000) { fired.update { $0.append("late") } }
        // Wait until the thread has gone to sleep for the hour: only a wake-up brings it back.
        while true {
            guard slept.wait(timeout: .now() + 60) == .success else {
                Issue.record("the timeout thread never went to sleep")
                return
            }
            if let until = asleep.get.last, until != nil { break }
        }
        _ = clock.schedule(afterNanoseconds: 20_000_000) {
            fired.update { $0.append("soon") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(fired.get == ["soon"])
        #expect(clock.liveCount == 1)
        #expect(clock.cancel(late))
        #expect(clock.liveCount == 0)
    }

    final class Payload: Sendable {}

    @Test func aCancelledTimerNeverFiresAndItsHandlerIsReleased() {
        let clock = TimeoutClock()
        let fired = Box(0)
        let done = DispatchSemaphore(value: 0)
        var tokens: [UInt64] = []
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            for _ in 0..<1_000 {
                tokens.append(
                    clock.schedule(afterNanoseconds: 2_000_000_000) {
                        _ = payload
                        fired.update { $0 += 1 }
                    })
            }
        }
        #expect(released != nil, "the handlers hold the payload")
        // A cancel that came too late (a starved run) says so, and its handler may run.
        let late = tokens.filter { !clock.cancel($0) }.count
        #expect(clock.liveCount == 0)
        if late == 0 { #expect(released == nil, "cancelling released every handler") }
        // One left armed after them: by the time it fires, the cancelled ones would have.
        _ = clock.schedule(afterNanoseconds: 2_500_000_000) { done.signal() }
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
