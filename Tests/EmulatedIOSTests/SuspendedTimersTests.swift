import HostProtocol
import Testing

@testable import EmulatedIOS

/// While the app is suspended (`appStates`), nothing of it runs: a timer of its run loop that
/// comes due waits, and fires at once when the app is resumed (its date has passed on a
/// clock that kept counting).
@Suite("ios: suspended timers")
struct SuspendedTimersTests {
    /// The OS alone with `appStates` on from t = 0 (suspension due at 5 s).
    static func makeOS() throws -> EmulatedOS {
        let (os, _) = try EmulatedOSAloneTests.makeOS(ios: IOSSystem(seed: 0))
        var update = IOSPolicy.Update()
        update.appStates = .init(appStates: true)
        _ = try os.setPolicy(update)
        return os
    }

    @Test func aTimerWaitsWhileSuspendedAndFiresOnResume() throws {
        let os = try Self.makeOS()
        var firedAt: [VirtualTime] = []
        os.runLoop.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in firedAt.append(os.clock.now) }
        os.advance(to: VirtualTime(seconds: 6)!)
        #expect(os.appState == .suspended)
        os.advance(to: VirtualTime(seconds: 100)!)
        #expect(firedAt.isEmpty, "a suspended app's timer fired")
        #expect(os.nextDueTime() == nil)
        _ = try os.openApp()
        #expect(os.appState == .foreground)
        #expect(os.nextDueTime() == VirtualTime(seconds: 100))
        os.advance(to: VirtualTime(seconds: 100)!)
        #expect(firedAt == [VirtualTime(seconds: 100)!])
    }

    /// A timer due before the suspension fires at its own time; under `appStates` off none waits.
    @Test func timersRunWhenNotSuspended() throws {
        let os = try Self.makeOS()
        var firedAt: [VirtualTime] = []
        os.runLoop.scheduledTimer(withTimeInterval: 4, repeats: false) { _ in firedAt.append(os.clock.now) }
        os.advance(to: VirtualTime(seconds: 10)!)
        #expect(firedAt == [VirtualTime(seconds: 4)!] && os.appState == .suspended)
        let (plain, _) = try EmulatedOSAloneTests.makeOS(ios: IOSSystem(seed: 0, defaults: .legacy))
        var plainFired: [VirtualTime] = []
        plain.runLoop.scheduledTimer(withTimeInterval: 100, repeats: false) { _ in plainFired.append(plain.clock.now) }
        plain.advance(to: VirtualTime(seconds: 200)!)
        #expect(plainFired == [VirtualTime(seconds: 100)!] && plain.appState == nil)
    }
}
