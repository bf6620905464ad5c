import HostProtocol
import Testing

@testable import EmulatedIOS

/// The emulated OS on its own, without the plugin's port: an app of a few lines
/// (``TinyApp``) is all it needs, under either policy.
@Suite("The emulated OS without the port")
struct EmulatedOSAloneTests {
    static let refresh = "com.example.app.bg-refresh"

    /// An app that registers one refresh handler, completes each task it gets, and
    /// remembers what the OS did to it.
    final class TinyApp: EmulatedApp {
        let scheduler: BGTaskScheduler
        var launches: [VirtualTime] = []
        var ended = false

        init(os: EmulatedOS) { scheduler = os.scheduler }

        func load() throws(BGTaskScheduler.RegistrationError) {
            try scheduler.register(forTaskWithIdentifier: EmulatedOSAloneTests.refresh, kind: .refresh) {
                [unowned self] task in
                launches.append(task.launchedAt)
                task.setTaskCompleted(success: true)
            }
        }

        func processDidEnd() { ended = true }
    }

    /// An OS whose every process runs a new ``TinyApp`` (all of them kept, in order), started once.
    static func makeOS(ios: IOSSystem? = nil) throws -> (EmulatedOS, () -> [TinyApp]) {
        let events = EventSink(emit: { _, _ in }, log: { _ in })
        let os = EmulatedOS(
            clock: PluginClock(kind: .virtual, timeScale: 1, monotonicNanoseconds: { 0 }),
            infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"), events: events, faults: .none, ios: ios)
        var apps: [TinyApp] = []
        os.makePlugin = { os in
            let app = TinyApp(os: os)
            apps.append(app)
            return app
        }
        try os.loadApp(os.app, loadsLate: false)
        return (os, { apps })
    }

    static func refreshRequest(at seconds: Double) -> BGAppRefreshTaskRequest {
        let request = BGAppRefreshTaskRequest(identifier: refresh)
        request.earliestBeginDate = VirtualTime(seconds: seconds)
        return request
    }

    /// `--os manual`: nothing launches by itself until `autoLaunch`, then at the earliest begin date.
    @Test func manualPolicyLaunchesOnlyUnderAutoLaunch() throws {
        let (os, apps) = try Self.makeOS()
        #expect(os.policy is ManualPolicy && os.ios == nil)
        try os.scheduler.submit(Self.refreshRequest(at: 60))
        os.advance(to: VirtualTime(seconds: 120)!)
        #expect(apps()[0].launches.isEmpty)
        os.device.conditions.autoLaunch = true
        try os.scheduler.submit(Self.refreshRequest(at: 180))
        os.advance(to: VirtualTime(seconds: 600)!)
        #expect(apps().count == 1)
        #expect(apps()[0].launches == [VirtualTime(seconds: 180)!])
    }

    /// `--os ios`: a terminated app's process ends (the app hears of it), and `os/launch`
    /// cold-starts a new one, whose own handler runs the task.
    @Test func iosPolicyColdStartsANewProcess() throws {
        let (os, apps) = try Self.makeOS(ios: IOSSystem(seed: 1))
        #expect(os.policy is IOSSystem && os.policy.finishesInstant)
        try os.scheduler.submit(Self.refreshRequest(at: 0))
        os.terminateApp(reason: .system)
        #expect(apps()[0].ended && !os.app.isRunning)
        let launched = try os.launch(identifier: Self.refresh)
        #expect(launched.identifier == Self.refresh)
        #expect(apps().count == 2)
        #expect(apps()[0].launches.isEmpty && apps()[1].launches.count == 1)
        #expect(os.app.isRunning && os.ios?.launches == 2)
    }

    /// The two policies answer the interface's questions differently, and only there.
    @Test func thePoliciesDiffer() {
        let manual: any OSPolicy = ManualPolicy()
        let ios: any OSPolicy = IOSSystem(seed: 0)
        #expect(manual.advanceEventBound == EmulatedOS.maxEventsPerAdvance)
        #expect(ios.advanceEventBound == EmulatedOS.maxEventsPerAdvanceIOS)
        #expect(!manual.finishesInstant && !manual.neverDueAtClockLimit && !manual.reportsExpirationCause)
        #expect(ios.finishesInstant && ios.neverDueAtClockLimit && ios.reportsExpirationCause)
    }
}
