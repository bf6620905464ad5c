import HostProtocol
import Testing

@testable import EmulatedIOS

/// Rule ios.jetsam at the OS's level: a jetsam drawn at a suspension happens only while the
/// app is still suspended; a wake before it cancels it, and the next suspension draws anew.
@Suite("ios: jetsam, cancelled by a wake")
struct JetsamCancelTests {
    static func makeOS(jetsamWithinSecs: Double) throws -> EmulatedOS {
        let (os, _) = try EmulatedOSAloneTests.makeOS(ios: IOSSystem(seed: 0))
        var update = IOSPolicy.Update()
        update.appStates = .init(appStates: true, jetsamChance: 1, jetsamWithinSecs: jetsamWithinSecs)
        _ = try os.setPolicy(update)
        return os
    }

    @Test func openingTheAppCancelsTheDrawnJetsam() throws {
        let os = try Self.makeOS(jetsamWithinSecs: 1000)
        os.advance(to: VirtualTime(seconds: 5)!)
        #expect(os.appState == .suspended)
        let drawn = try #require(os.ios?.life.jetsamAt)
        #expect(drawn >= VirtualTime(seconds: 5)! && drawn <= VirtualTime(seconds: 1005)!)
        #expect(os.nextDueTime() == drawn)
        _ = try os.openApp()
        #expect(os.ios?.life.jetsamAt == nil)
        os.advance(to: VirtualTime(seconds: 2000)!)
        #expect(os.app.isRunning && os.appState == .foreground && os.ios?.lastTermination == nil)
    }

    @Test func stillSuspendedAtTheDrawnTimeTheAppEnds() throws {
        let os = try Self.makeOS(jetsamWithinSecs: 1000)
        os.advance(to: VirtualTime(seconds: 5)!)
        let drawn = try #require(os.ios?.life.jetsamAt)
        os.advance(to: drawn)
        #expect(!os.app.isRunning && os.appState == .notRunning)
        #expect(os.ios?.lastTermination == .init(reason: .jetsam, at: drawn))
        #expect(os.coldStartNote()?.factor == .coldStart)
    }
}
