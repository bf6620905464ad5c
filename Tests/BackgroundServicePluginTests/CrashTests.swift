import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rules ios.register-before-launch-end and ios.launch-has-handler under the
/// default `crashOnMisuse`: a misuse of `BGTaskScheduler` is an uncaught
/// `NSInternalInconsistencyException`, and the app's process ends (`os/appTerminated`
/// reason `crash`, Apple's message; `docs/rules.md` section 7).
@Suite("ios: crashes")
struct CrashTests {
    static let late = "All launch handlers must be registered before application finishes launching"
    static let lateDetail =
        "NSInternalInconsistencyException: launch handler for \(refreshID) registered after the app finished "
        + "launching; all launch handlers must be registered before then (the plugin was loaded after "
        + "didFinishLaunching)"

    /// A late-loading plugin's registration crashes the process `os/openApp` started:
    /// the violation, then `os/appTerminated {reason: "crash"}`; the app is not running,
    /// the crash is counted; `os/explain` said beforehand that launching would crash it.
    @Test func lateRegistrationCrashesTheApp() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"pluginLoadsLate":true}"#), req(2, "startKeepalive"), terminate(3, "system"),
                explain(4, refreshID), openApp(5), state(6),
            ])
        let opened = try #require(Replies.index(of: #"{"id":5,"#, in: lines))
        #expect(
            Array(lines[(opened - 3)..<opened]) == [
                evAppLaunched("user", at: "0"), evViolation("ios.register-before-launch-end", Self.lateDetail),
                evCrashed(at: "0", message: Self.late),
            ])
        let reasons = try Replies.explanation(4, in: lines).reasons
        #expect(reasons.last?.factor == .launchCrashes)
        #expect(reasons.last?.detail.hasSuffix("NSInternalInconsistencyException: \(Self.late)") == true)
        let status = try AppStatus(json: try #require(Replies.result(5, in: lines)))
        #expect(status.phase == .notRunning && status.lastTermination?.reason == .crash && status.launches == 2)
        let s = try Replies.state(6, in: lines)
        #expect(s.counters.crashes == 1 && s.counters.violations == 1 && s.registered.isEmpty)
    }

    /// A cold start into the background with a late-loading plugin crashes, and the launch
    /// it was for is lost (the request is gone: no crash loop); both requests due at 900 go so.
    @Test func lateColdStartLosesTheLaunch() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), setPolicy(2, #"{"pluginLoadsLate":true}"#), req(3, "startKeepalive"),
                terminate(4, "system"), advance(5, "1000"), explain(6, refreshID), state(7),
            ])
        #expect(lines.contains(evAppLaunched("backgroundTask", at: "900", identifier: refreshID)))
        #expect(lines.contains(evAppLaunched("backgroundTask", at: "900", identifier: processingID)))
        #expect(lines.filter { $0 == evCrashed(at: "900", message: Self.late) }.count == 2)
        #expect(Replies.events("os/taskLaunched", in: lines).isEmpty)
        #expect(try Replies.explanation(6, in: lines).status == .notPending)
        let s = try Replies.state(7, in: lines)
        #expect(s.pendingRequests.isEmpty && s.counters.crashes == 2 && s.counters.launched == 0)
    }

    /// `os/launch` of a request whose cold start crashes: `-32002` says so, and the launch is lost.
    @Test func osLaunchIntoACrash() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"pluginLoadsLate":true}"#), req(2, "startKeepalive"), terminate(3, "system"),
                launch(4, refreshID), req(5, "os/pendingTaskRequests"),
            ])
        let message =
            "Invalid state: cannot launch \(refreshID): the app was launched for it and crashed at 0 s (launch "
            + "handler for \(refreshID) registered after the app finished launching; all launch handlers must be "
            + "registered before then); the launch is lost"
        #expect(lines.contains(failure(4, -32002, message)))
        #expect(lines.contains(evCrashed(at: "0", message: Self.late)))
        let pending = try #require(Replies.result(5, in: lines)?.arrayValue)
        #expect(pending.map { $0["identifier"]?.stringValue } == [processingID])
    }

    /// A launch of a request the running app has no handler for (here the app lived on after a
    /// late registration, `crashOnMisuse` off, and the member is then turned on): `os/explain`
    /// says it crashes; the system launches it and the app crashes with "No launch handler
    /// registered …", the held `waitForCancel` answered `terminated`, the launch lost.
    @Test func launchWithoutAHandlerCrashes() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), setPolicy(2, #"{"pluginLoadsLate":true,"crashOnMisuse":false}"#),
                terminate(3, "system"), openApp(4),
                req(5, "startKeepalive", #"{"iosEarliestProcessingBeginMinutes":600}"#),
                req(6, "waitForCancel"),
                setPolicy(7, #"{"crashOnMisuse":true}"#), explain(8, refreshID), advance(9, "1000"), state(10),
            ])
        let noHandler = "No launch handler registered for task with identifier \(refreshID)"
        let reasons = try Replies.explanation(8, in: lines).reasons
        #expect(reasons.map(\.factor) == [.earliestBeginDate, .launchCrashes])
        #expect(reasons.last?.detail.hasSuffix("(NSInternalInconsistencyException: \(noHandler))") == true)
        let crashed = try #require(lines.firstIndex(of: evCrashed(at: "900", message: noHandler)))
        #expect(
            lines[crashed - 1]
                == evViolation(
                    "ios.launch-has-handler",
                    "NSInternalInconsistencyException: \(noHandler) (the system launched \(refreshID); none is "
                        + "registered)"))
        #expect(lines[crashed + 1] == rejected(6, "terminated"))
        let s = try Replies.state(10, in: lines)
        #expect(s.counters.crashes == 1 && s.counters.launched == 0)
        #expect(s.pendingRequests.map(\.identifier) == [processingID])
    }
}
