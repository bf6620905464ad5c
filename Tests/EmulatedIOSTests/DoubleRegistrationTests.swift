import HostProtocol
import Testing

@testable import EmulatedIOS

/// Rule ios.register-once: a second registration of one identifier in one process is an
/// uncaught `NSInternalInconsistencyException` ("Launch handler for task with identifier X has
/// already been registered", transistorsoft/transistor-background-fetch issue 14). No load
/// path of the seed registers twice while launching, so an app of a few lines does.
@Suite("ios: a second registration")
struct DoubleRegistrationTests {
    static let refresh = "com.example.app.bg-refresh"

    /// An app whose `load` registers the refresh handler twice.
    final class TwiceApp: EmulatedApp {
        let scheduler: BGTaskScheduler
        init(os: EmulatedOS) { scheduler = os.scheduler }
        func load() throws(BGTaskScheduler.RegistrationError) {
            for _ in 0..<2 {
                try scheduler.register(forTaskWithIdentifier: DoubleRegistrationTests.refresh, kind: .refresh) {
                    $0.setTaskCompleted(success: true)
                }
            }
        }
        func processDidEnd() {}
    }

    /// The OS with a ``TwiceApp``, its first process started, and the events it sent.
    static func makeOS(crashOnMisuse: Bool) -> (EmulatedOS, () -> [(String, JSONValue)]) {
        var sent: [(String, JSONValue)] = []
        let events = EventSink(emit: { sent.append(($0, $1)) }, log: { _ in })
        let ios = IOSSystem(seed: 0)
        ios.policy.crashOnMisuse = crashOnMisuse
        let os = EmulatedOS(
            clock: PluginClock(kind: .virtual, timeScale: 1, monotonicNanoseconds: { 0 }),
            infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"), events: events, faults: .none, ios: ios)
        os.makePlugin = { TwiceApp(os: $0) }
        os.terminateApp(reason: .system)
        return (os, { sent })
    }

    /// A new process (`os/openApp`) registers twice and crashes with Apple's message.
    @Test func secondRegistrationCrashes() throws {
        let (os, sent) = Self.makeOS(crashOnMisuse: true)
        let status = try os.openApp()
        #expect(status.phase == .notRunning && status.lastTermination?.reason == .crash)
        let message = "Launch handler for task with identifier \(Self.refresh) has already been registered"
        let names = sent().map(\.0)
        #expect(names.suffix(3) == ["os/appLaunched", "os/violation", "os/appTerminated"])
        #expect(sent()[names.count - 2].1["rule"]?.stringValue == "ios.register-once")
        let crash = try AppTerminatedEvent.Params(json: try #require(sent().last?.1))
        #expect(crash.reason == .crash && crash.exception == "NSInternalInconsistencyException")
        #expect(crash.message == message)
        #expect(os.events.counters.crashes == 1 && os.events.counters.violations == 1)
    }

    /// With `crashOnMisuse` off the app lives on with the first registration.
    @Test func secondRegistrationReportedOnly() throws {
        let (os, sent) = Self.makeOS(crashOnMisuse: false)
        let status = try os.openApp()
        #expect(status.phase == .running && os.scheduler.registrations[Self.refresh] != nil)
        #expect(sent().last?.0 == "os/violation" && os.events.counters.crashes == 0)
    }
}
