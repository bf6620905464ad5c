import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rules ios.terminate, ios.cold-start, ios.force-quit, ios.open-app,
/// ios.register-before-launch-end: the app's process ends and starts again.
@Suite("ios: app lifecycle")
struct AppLifecycleTests {
    static let notRunning = failure(
        5, -32000, "invoke rejected: terminated (the app is not running; os/openApp starts it)",
        data: #"{"reason":"terminated"}"#)

    /// A system termination: `os/appTerminated`, then the pending wait answered
    /// `terminated`; the requests stay pending; invokes find no app; the plugin's
    /// side of `plugin/state` is empty.
    @Test func systemTerminationKeepsPendingRequests() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive", #"{"iosSafetyTimeoutSecs":20}"#),
                req(3, "waitForCancel"), terminate(4, "system"), req(5, "startKeepalive"),
                req(6, "os/pendingTaskRequests"), state(7),
            ])
        #expect(Array(lines[4...6]) == [evAppTerminated("system", at: "0"), rejected(3, "terminated"), lines[6]])
        #expect(
            lines[6].hasPrefix(
                #"{"id":4,"jsonrpc":"2.0","result":{"forceQuit":false,"lastTermination":{"at":0,"reason":"system"}"#))
        #expect(lines[7] == Self.notRunning)
        #expect(lines[8] == ok(6, "[\(requestJSON(processingID, "900")),\(requestJSON(refreshID, "900"))]"))
        let s = try Replies.state(7, in: lines)
        #expect(s.ios?.app.phase == .notRunning)
        #expect(s.registered.isEmpty && s.activeTask == nil && s.safetyTimerDeadline == nil && s.config == .defaults)
        #expect(s.pendingRequests.count == 2)
    }

    /// A pending request's launch after a termination is a cold start into the
    /// background: `os/appLaunched {cause: "backgroundTask"}` before the task starts,
    /// a fresh plugin (config back to the seed's defaults: the 28 s timer, not 20 s),
    /// registration run again.
    @Test func coldRelaunchRegistersAgain() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy),
                req(2, "startKeepalive", #"{"iosSafetyTimeoutSecs":20,"iosEarliestProcessingBeginMinutes":100}"#),
                terminate(3, "system"), advance(4, "900"), state(5),
            ])
        let from = try #require(Replies.index(of: "os/appLaunched", in: lines))
        #expect(
            Array(lines[from...(from + 3)]) == [
                evAppLaunched("backgroundTask", at: "900", identifier: refreshID), evLaunched(refreshID, at: "900"),
                evTimer("started", "928"), now(4, "900"),
            ])
        let s = try Replies.state(5, in: lines)
        #expect(
            s.ios?.app
                == AppStatus(
                    phase: .running, launchCause: .backgroundTask, launchedAt: VirtualTime(seconds: 900)!,
                    forceQuit: false,
                    registrationError: nil, lastTermination: .init(reason: .system, at: .zero), launches: 2))
        #expect(s.registered.map(\.identifier) == [processingID, refreshID])
        #expect(s.config == .defaults && s.activeTask?.identifier == refreshID)
        #expect(s.safetyTimerDeadline == VirtualTime(seconds: 928))
    }

    /// `os/launch` of a pending request while the app is not running cold-starts it
    /// too (the debugger's launch ignores the policy, force-quit included).
    @Test func osLaunchColdStarts() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                req(1, "startKeepalive"), terminate(2, "forceQuit"), launch(3, processingID), state(4),
            ])
        #expect(
            Array(lines[5...7]) == [
                evAppLaunched("backgroundTask", at: "0", identifier: processingID), evLaunched(processingID, at: "0"),
                launched(3, processingID, at: "0"),
            ])
        #expect(try Replies.state(4, in: lines).ios?.app.forceQuit == true)
    }

    /// After a force-quit nothing launches in the background, whatever the time; the
    /// requests stay, `os/explain` says why; `os/openApp` starts the app (cause `user`)
    /// and clears the mark, and the requests then launch in the running app.
    @Test func forceQuitSuppressesLaunchesUntilOpenApp() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmOneTaskPolicy), req(2, "startKeepalive"), terminate(3, "forceQuit"),
                advance(4, "86400"),
                explain(5, refreshID), openApp(6), advance(7, "0"), state(8),
            ])
        #expect(Replies.events("os/taskLaunched", in: lines).count == 1)
        let launchedAt = try #require(Replies.index(of: #""method":"os/taskLaunched""#, in: lines))
        #expect(launchedAt > (try #require(Replies.index(of: #"{"id":6,"#, in: lines))))
        let why = try Replies.explanation(5, in: lines)
        #expect(why.reasons.map(\.factor) == [.forceQuit] && why.nextPossibleAt == nil && why.status == .pending)
        let opened = try AppStatus(json: try #require(Replies.result(6, in: lines)))
        #expect(opened.phase == .running && opened.launchCause == .user && !opened.forceQuit && opened.launches == 2)
        #expect(lines.contains(evAppLaunched("user", at: "86400")))
        #expect(lines.contains(evLaunched(refreshID, at: "86400")))
        #expect(!lines.contains { $0.contains(#""cause":"backgroundTask""#) })
        #expect(try Replies.state(8, in: lines).activeTask?.identifier == refreshID)
    }

    /// A force-quit of an app that is not running only marks it (it is still in the
    /// app switcher); a system termination of it is -32002; opening a running app is -32002.
    @Test func lifecycleErrors() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                openApp(1), terminate(2, "system"), terminate(3, "system"), terminate(4, "forceQuit"), state(5),
                req(6, "os/terminate", #"{"reason":"watchdog"}"#), req(7, "os/terminate"), req(8, "os/openApp", "[]"),
            ])
        #expect(lines[0] == failure(1, -32002, "Invalid state: cannot open the app: it is already running"))
        #expect(lines[3] == failure(3, -32002, "Invalid state: cannot terminate the app: it is not running"))
        #expect(lines[4].contains(#""forceQuit":true"#))
        #expect(!lines.contains { $0.contains(#""reason":"forceQuit"}"#) && $0.contains("appTerminated") })
        #expect(try Replies.state(5, in: lines).ios?.app.lastTermination?.reason == .system)
        let p = "Invalid params: "
        #expect(
            Array(lines.suffix(3)) == [
                failure(6, -32602, p + #"\"reason\" must be one of system, forceQuit, got \"watchdog\""#),
                failure(7, -32602, p + #"\"reason\" must be a string, got nothing"#),
                failure(8, -32602, p + "params must be an object (named parameters), not an array"),
            ])
    }

    /// Invokes while the app is not running: -32000 `terminated` ("not running");
    /// as notifications they are ignored (nothing is written).
    @Test func invokesWithoutTheApp() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                terminate(1, "system"), note("completeBgTask"), req(5, "waitForCancel"), req(5, "stopKeepalive"),
                req(5, "cancelCancelListener"), req(5, "completeBgTask", #"{"success":true}"#), state(6),
            ])
        #expect(Array(lines[2...5]) == Array(repeating: Self.notRunning, count: 4))
        #expect(try Replies.state(6, in: lines).cancelInvokePending == false)
    }

    /// A plugin loaded after `didFinishLaunching` (policy `pluginLoadsLate`) with
    /// `crashOnMisuse` off: its registration is Apple's NSInternalInconsistencyException, here
    /// a violation and `registrationError`; the app runs with no handler, its requests never
    /// launch. (By default the app crashes instead: `CrashTests`.)
    @Test func lateRegistrationIsAnErrorAndAViolation() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"pluginLoadsLate":true,"refreshDelayMaxSecs":0,"crashOnMisuse":false}"#),
                req(2, "startKeepalive"),
                terminate(3, "system"), openApp(4), advance(5, "2000"), explain(6, refreshID), state(7),
            ])
        let message =
            "launch handler for \(refreshID) registered after the app finished launching; "
            + "all launch handlers must be registered before then"
        let opened = try #require(Replies.index(of: #"{"id":4,"#, in: lines))
        #expect(
            Array(lines[(opened - 2)..<opened]) == [
                evAppLaunched("user", at: "0"),
                evViolation(
                    "ios.register-before-launch-end",
                    "NSInternalInconsistencyException: \(message) "
                        + "(the plugin was loaded after didFinishLaunching)"),
            ])
        let status = try AppStatus(json: try #require(Replies.result(4, in: lines)))
        #expect(status.phase == .running && status.registrationError == message)
        #expect(Replies.events("os/taskLaunched", in: lines).isEmpty)
        #expect(try Replies.explanation(6, in: lines).reasons.map(\.factor) == [.notRegistered])
        let s = try Replies.state(7, in: lines)
        #expect(s.registered.isEmpty && s.counters.violations == 1 && s.ios?.app.phase == .running)
    }

    /// With `crashOnMisuse` off, a cold start into the background with a late-loading plugin
    /// launches the app for nothing: the request stays pending, blocked by `notRegistered`.
    @Test func lateRegistrationOnColdStart() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), setPolicy(2, #"{"pluginLoadsLate":true,"crashOnMisuse":false}"#),
                req(3, "startKeepalive"),
                terminate(4, "system"), advance(5, "1000"), launch(6, refreshID), state(7),
            ])
        #expect(lines.contains(evAppLaunched("backgroundTask", at: "900", identifier: refreshID)))
        #expect(Replies.events("os/taskLaunched", in: lines).isEmpty)
        let deferred = Replies.events("os/launchDeferred", in: lines).first
        #expect(deferred?["reasons"]?.arrayValue?.first?["factor"]?.stringValue == "notRegistered")
        let unregistered =
            #"Invalid params: no launch handler is registered for \"\#(refreshID)\" (none is registered)"#
        #expect(lines.contains(failure(6, -32602, unregistered)))
        #expect(try Replies.state(7, in: lines).pendingRequests.count == 2)
    }
}
