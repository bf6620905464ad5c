import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rules ios.webview-created and ios.multiple-scenes: Tauri's load path as the
/// cause of a late registration (`docs/rules.md` section 7). Tauri runs a plugin's `load`
/// again for every new webview (`onWebviewCreated` never marks it loaded), and with multiple
/// scenes the first webview comes after `didFinishLaunching`.
@Suite("ios: Tauri's load path")
struct TauriLoadPathTests {
    static let late = "All launch handlers must be registered before application finishes launching"
    static let webviewDetail =
        "NSInternalInconsistencyException: launch handler for \(refreshID) registered after the app finished "
        + "launching; all launch handlers must be registered before then (a webview was created: Tauri's "
        + "onWebviewCreated ran the plugin's load again)"

    static func webview(_ id: Int) -> String { req(id, "os/webviewCreated") }

    /// A second webview while a task runs and a `waitForCancel` is held: the seed's `load`
    /// registers again, the app crashes (the running task's identifier in the event), the held
    /// invoke is answered `terminated`, and the reply shows the dead process.
    @Test func aSecondWebviewCrashesTheApp() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), launch(3, refreshID), req(4, "waitForCancel"),
                Self.webview(5), state(6),
            ])
        let answered = try #require(Replies.index(of: #"{"id":5,"#, in: lines))
        #expect(
            Array(lines[(answered - 3)..<answered]) == [
                evViolation("ios.register-before-launch-end", Self.webviewDetail),
                evCrashed(at: "0", identifier: refreshID, message: Self.late), rejected(4, "terminated"),
            ])
        let status = try AppStatus(json: try #require(Replies.result(5, in: lines)))
        #expect(status.phase == .notRunning && status.lastTermination?.reason == .crash)
        let s = try Replies.state(6, in: lines)
        #expect(s.counters.crashes == 1 && s.activeTask == nil && s.pendingRequests.map(\.identifier) == [processingID])
    }

    /// With `crashOnMisuse` off the second `load` is reported and the app lives on with the
    /// handlers of the first (the throw stopped the second at its first `register`); the
    /// seed asked for notification permission twice.
    @Test func aSecondWebviewReportedOnly() throws {
        let lines = try Plugin.lines(
            iosFlags(), [setPolicy(1, #"{"crashOnMisuse":false}"#), Self.webview(2), state(3)])
        #expect(lines.contains(evViolation("ios.register-before-launch-end", Self.webviewDetail)))
        let s = try Replies.state(3, in: lines)
        #expect(s.ios?.app.phase == .running && s.registered.count == 2 && s.counters.crashes == 0)
        #expect(s.notificationAuthorizationRequests == 2 && s.counters.violations == 1)
    }

    /// `--profile strict` (departure 12): `load` runs once per process, so a new webview
    /// registers nothing and nothing crashes; a new process registers again.
    @Test func strictLoadsOncePerProcess() throws {
        let lines = try Plugin.lines(
            ["--profile", "strict"] + iosFlags(),
            [Self.webview(1), Self.webview(2), terminate(3, "system"), openApp(4), Self.webview(5), state(6)])
        #expect(Replies.events("os/violation", in: lines).isEmpty)
        let s = try Replies.state(6, in: lines)
        #expect(s.ios?.app.phase == .running && s.registered.count == 2 && s.counters.crashes == 0)
        #expect(s.notificationAuthorizationRequests == 1 && s.ios?.app.launches == 2)
    }

    /// A webview needs a running app (`-32002`); under `--os manual` the control does not exist.
    @Test func aWebviewNeedsARunningIOSApp() throws {
        let ios = try Plugin.lines(iosFlags(), [terminate(1, "system"), Self.webview(2)])
        #expect(
            ios.last
                == failure(
                    2, -32002, "Invalid state: cannot create a webview: the app is not running (os/openApp starts it)"))
        let manual = try Plugin.lines([], [Self.webview(1)])
        #expect(manual.first?.contains(#""code":-32601"#) == true)
    }

    /// `multipleScenes`: every new process loads the plugin after `didFinishLaunching`, so every
    /// launch crashes (two `os/openApp`s, two crashes); `os/explain` names the cause beforehand.
    @Test func multipleScenesCrashEveryLaunch() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"multipleScenes":true}"#), req(2, "startKeepalive"), terminate(3, "system"),
                explain(4, refreshID), openApp(5), openApp(6), state(7),
            ])
        let detail =
            "NSInternalInconsistencyException: launch handler for \(refreshID) registered after the app finished "
            + "launching; all launch handlers must be registered before then (the plugin was loaded after "
            + "didFinishLaunching: with multiple scenes the first webview, and Tauri's plugin loading with it, "
            + "comes when a scene connects (multipleScenes))"
        #expect(lines.filter { $0 == evViolation("ios.register-before-launch-end", detail) }.count == 2)
        #expect(lines.filter { $0 == evCrashed(at: "0", message: Self.late) }.count == 2)
        let reason = try Replies.explanation(4, in: lines).reasons.last
        #expect(reason?.factor == .launchCrashes && reason?.detail.contains("(multipleScenes)") == true)
        let s = try Replies.state(7, in: lines)
        #expect(s.counters.crashes == 2 && s.ios?.app.launches == 3 && s.ios?.app.phase == .notRunning)
    }

    /// `multipleScenes` with `crashOnMisuse` off: each launch's registration is late and the app
    /// lives on without handlers, as `pluginLoadsLate` alone does (the two are one effect).
    @Test func multipleScenesLoadLateOnEveryLaunch() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"multipleScenes":true,"crashOnMisuse":false}"#), terminate(2, "system"), openApp(3),
                terminate(4, "system"), openApp(5), state(6),
            ])
        #expect(Replies.events("os/violation", in: lines).count == 2)
        let s = try Replies.state(6, in: lines)
        #expect(s.ios?.app.phase == .running && s.registered.isEmpty && s.ios?.app.registrationError != nil)
        #expect(s.ios?.policy.pluginLoadsLate == false && s.counters.crashes == 0)
    }
}
