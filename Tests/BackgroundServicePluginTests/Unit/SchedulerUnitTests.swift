import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin
@testable import EmulatedIOS

/// The emulated `BGTaskScheduler`, in-process: errors, limits, replacement, registration.
@Suite("unit: BGTaskScheduler")
struct SchedulerUnitTests {
    static let many: [String] = (1...12).map { "com.example.app.p\($0)" }
    static let bigPlist = InfoPlist(
        permittedIdentifiers: Set([refreshID, processingID, "com.example.app.r2"] + many),
        backgroundModes: ["fetch", "processing"])

    func submitError(_ scheduler: BGTaskScheduler, _ request: BGTaskRequest) -> SchedulerErrorKind? {
        do {
            try scheduler.submit(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func unavailableWhenRefreshDeniedOrRestricted() {
        for status in [BackgroundRefreshStatus.denied, .restricted] {
            let rec = EventRecorder()
            let os = makeOS(rec)
            _ = os.setConditions(.init(backgroundRefreshStatus: status))
            #expect(submitError(os.scheduler, refreshRequest()) == .unavailable)
            #expect(submitError(os.scheduler, processingRequest()) == .unavailable)
            #expect(os.scheduler.pendingTaskRequests.isEmpty)
            #expect(rec.names == ["os/submitFailed", "os/submitFailed"])
        }
    }

    @Test(arguments: [
        (InfoPlist(permittedIdentifiers: [processingID], backgroundModes: ["fetch", "processing"]), true, false),
        (InfoPlist(permittedIdentifiers: [refreshID, processingID], backgroundModes: ["processing"]), true, false),
        (InfoPlist(permittedIdentifiers: [refreshID, processingID], backgroundModes: ["fetch"]), false, true),
        (
            InfoPlist(
                permittedIdentifiers: [refreshID, processingID],
                backgroundModes: ["background-fetch", "background-processing"]), true, true
        ),
    ])
    func notPermitted(plist: InfoPlist, refreshFails: Bool, processingFails: Bool) {
        let os = makeOS(EventRecorder(), plist: plist)
        #expect((submitError(os.scheduler, refreshRequest()) == .notPermitted) == refreshFails)
        #expect((submitError(os.scheduler, processingRequest()) == .notPermitted) == processingFails)
        #expect(submitError(os.scheduler, refreshRequest("com.other.task")) == .notPermitted)
    }

    @Test func limitsOneRefreshTenProcessing() {
        let os = makeOS(EventRecorder(), plist: Self.bigPlist)
        #expect(submitError(os.scheduler, refreshRequest()) == nil)
        #expect(submitError(os.scheduler, refreshRequest("com.example.app.r2")) == .tooManyPendingTaskRequests)
        for id in Self.many.prefix(10) { #expect(submitError(os.scheduler, processingRequest(id)) == nil) }
        #expect(submitError(os.scheduler, processingRequest(Self.many[10])) == .tooManyPendingTaskRequests)
        #expect(os.scheduler.pendingTaskRequests.count == 11)
        // Limits count per kind: the refresh slot does not use a processing one.
        #expect(os.scheduler.pendingTaskRequests.filter { $0.kind == .processing }.count == 10)
    }

    @Test func resubmitReplacesAndIsNotCountedAgainstTheLimit() throws {
        let os = makeOS(EventRecorder(), plist: Self.bigPlist)
        try os.scheduler.submit(refreshRequest(at: 10))
        try os.scheduler.submit(refreshRequest(at: 20))
        for id in Self.many.prefix(10) { try os.scheduler.submit(processingRequest(id)) }
        try os.scheduler.submit(processingRequest(Self.many[0], at: 5, power: true))
        let pending = os.scheduler.pendingTaskRequests
        #expect(pending.count == 11)
        #expect(os.scheduler.pendingRequest(refreshID)?.earliestBeginDate == seconds(20))
        let replaced = try #require(os.scheduler.pendingRequest(Self.many[0]) as? BGProcessingTaskRequest)
        #expect(replaced.earliestBeginDate == seconds(5) && replaced.requiresExternalPower)
        #expect(
            pending.map(\.identifier) == pending.map(\.identifier).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        )
    }

    @Test func cancelReportsOnlyWhatWasPending() throws {
        let rec = EventRecorder()
        let os = makeOS(rec)
        try os.scheduler.submit(refreshRequest())
        try os.scheduler.submit(processingRequest())
        rec.events.removeAll()
        os.scheduler.cancel(taskRequestWithIdentifier: refreshID)
        os.scheduler.cancel(taskRequestWithIdentifier: refreshID)
        #expect(rec.names == ["os/requestCancelled"])
        os.scheduler.cancelAllTaskRequests()
        #expect(rec.names == ["os/requestCancelled", "os/requestCancelled"])
        #expect(os.scheduler.pendingTaskRequests.isEmpty)
    }

    @Test func registeringTwiceThrows() throws {
        let os = makeOS(EventRecorder())
        #expect(try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { _ in })
        let error = #expect(throws: BGTaskScheduler.RegistrationError.self) {
            try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { _ in }
        }
        #expect(error?.description == "launch handler for \(refreshID) has already been registered")
    }

    @Test func registeringAfterLaunchFinishedThrows() throws {
        let os = makeOS(EventRecorder())
        os.scheduler.launchFinished = true
        let error = #expect(throws: BGTaskScheduler.RegistrationError.self) {
            try os.scheduler.register(forTaskWithIdentifier: processingID, kind: .processing) { _ in }
        }
        #expect(
            error?.description
                == "launch handler for \(processingID) registered after the app finished launching; all launch "
                + "handlers must be registered before then"
        )
        #expect(os.scheduler.registrations.isEmpty)
    }

    /// A plugin world (the plugin loaded) refuses a second load: its handlers are registered.
    @Test func pluginLoadTwiceThrows() throws {
        let world = try PluginWorld(
            options: PluginOptions(), infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"),
            events: EventRecorder().sink, monotonicNanoseconds: { 0 })
        #expect(throws: BGTaskScheduler.RegistrationError.self) { try world.plugin.load() }
        #expect(world.os.scheduler.registrations.count == 2)
    }

    @Test func registerRefusesUnpermittedIdentifier() throws {
        let os = makeOS(EventRecorder(), plist: InfoPlist(permittedIdentifiers: [], backgroundModes: ["fetch"]))
        #expect(try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { _ in } == false)
        #expect(os.scheduler.registrations.isEmpty)
    }

    /// `os/expire` runs a task's expiration handler at most once, even when the
    /// handler leaves the task running.
    @Test func expireRunsTheHandlerOnce() throws {
        let os = makeOS(EventRecorder())
        var runs = 0
        try os.scheduler.register(forTaskWithIdentifier: refreshID, kind: .refresh) { task in
            task.expirationHandler = { runs += 1 }
        }
        try os.scheduler.submit(refreshRequest())
        _ = try os.launch(identifier: refreshID)
        try os.expire(identifier: refreshID)
        let error = #expect(throws: RPCError.self) { try os.expire(identifier: refreshID) }
        #expect(error?.code == .invalidState)
        #expect(error?.message == "Invalid state: cannot expire \(refreshID): its expiration handler already ran")
        #expect(runs == 1)
    }
}
