import HostProtocol
import HostTestSupport
import Testing

/// `--os ios` with the policy's `appStates` (issue 23; `docs/rules.md`, "App states"):
/// foreground, background, suspended, notRunning, and what each does to the tasks.
@Suite("ios: app states")
struct AppStatesTests {
    /// The calm policy with the app's states on, and no jetsam (`JetsamTests` has it).
    static let statesPolicy =
        #"{"refreshDelayMaxSecs":0,"processingDelayMaxSecs":0,"refreshEarlyExpiryChance":0,"appStates":true,"#
        + #""jetsamChance":0}"#

    static func evState(_ state: String, at: String, identifier: String? = nil) -> String {
        let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
        return event("os/appStateChanged", #"{"at":\#(at)\#(id),"state":"\#(state)"}"#)
    }

    static let toBackground = req(0, "os/sendToBackground")

    static func toBackground(_ id: Int) -> String { req(id, "os/sendToBackground") }

    /// On by default (`--ios-defaults device`): the session's app starts in the background and
    /// is suspended 5 s later, `plugin/state` says where it is and `os/setPolicy` writes the
    /// member. Off under `--ios-defaults legacy` (or `appStates: false`): no `appState` in
    /// `plugin/state`, no new member written, `os/sendToBackground` says what it needs, and
    /// nothing is ever suspended.
    @Test func onByDefaultOffUnderLegacy() throws {
        let script = [req(1, "startKeepalive"), advance(2, "60"), Self.toBackground(3), state(4), setPolicy(5, "{}")]
        let device = try Plugin.lines(iosFlags(), script)
        #expect(Replies.events("os/appStateChanged", in: device).map { $0["state"]?.stringValue } == ["suspended"])
        #expect(device.contains(Self.evState("suspended", at: "5")))
        #expect(try Replies.state(4, in: device).ios?.appState == .suspended)
        #expect(try Replies.state(4, in: device).ios?.lastUsedAt == .zero)  // the session's start
        #expect(device.last == ok(5, policyJSON()))

        let legacy = try Plugin.lines(iosFlags(legacy: true), script)
        let off = try Plugin.lines(
            iosFlags(), [setPolicy(0, #"{"appStates":false}"#), advance(1, "0")] + script)
        for lines in [legacy, off] {
            #expect(!lines.contains { $0.contains("os/appStateChanged") })
            #expect(
                lines.contains(
                    failure(
                        3, -32002,
                        #"Invalid state: os/sendToBackground needs the policy's appStates "#
                            + #"(os/setPolicy {\"appStates\": true})"#
                    )))
            #expect(try Replies.state(4, in: lines).ios?.appState == nil)
        }
        #expect(try Replies.state(4, in: legacy).ios?.lastUsedAt == nil)
        #expect(legacy.last == ok(5, policyJSON(legacy: true)))
        #expect(off.last == ok(5, policyJSON(["appStates": "false"])))
    }

    /// Switched off while suspended, the app runs again, announced (the host thaws the app's side
    /// on it), and no state is modelled after.
    @Test func switchingOffWhileSuspendedResumesTheApp() throws {
        let lines = try Plugin.lines(
            iosFlags(), [advance(1, "10"), setPolicy(2, #"{"appStates":false}"#), advance(3, "100"), state(4)])
        #expect(
            Replies.events("os/appStateChanged", in: lines).map { $0["state"]?.stringValue } == [
                "suspended", "background",
            ])
        #expect(lines.contains(Self.evState("background", at: "10")))
        #expect(try Replies.state(4, in: lines).ios?.appState == nil)
    }

    /// `ios.lastUsedAt` is the last use: now while the app is in the foreground, the moment it
    /// left after.
    @Test func lastUsedAtFollowsTheForeground() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                advance(1, "100"), openApp(2), advance(3, "50"), state(4), Self.toBackground(5), advance(6, "50"),
                state(7),
            ])
        #expect(try Replies.state(4, in: lines).ios?.lastUsedAt == VirtualTime(seconds: 150))
        #expect(try Replies.state(7, in: lines).ios?.lastUsedAt == VirtualTime(seconds: 150))
    }

    /// In the background with no task running, the app is suspended `suspendDelaySecs` after
    /// it became idle (default 5 s), not a tick before.
    @Test func suspendedAfterTheDelay() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, Self.statesPolicy), req(2, "startKeepalive"), advance(3, "4.999999999"), state(4),
                advance(5, "0.000000001"), state(6),
            ])
        #expect(try Replies.state(4, in: lines).ios?.appState == .background)
        #expect(Replies.events("os/appStateChanged", in: lines).count == 1)
        #expect(lines.contains(Self.evState("suspended", at: "5")))
        #expect(try Replies.state(6, in: lines).ios?.appState == .suspended)
        // A policy's own delay.
        let later = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"appStates":true,"suspendDelaySecs":30,"jetsamChance":0}"#), advance(2, "100"),
            ])
        #expect(later.contains(Self.evState("suspended", at: "30")))
    }

    /// A background launch wakes the suspended app (`background`, naming the task) before the
    /// task starts; once the task ends (the 28 s safety timer completes it) it is suspended again
    /// after the delay.
    @Test func launchWakesAndTheAppIsSuspendedAgain() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, Self.statesPolicy),
                setPolicy(2, #"{"maxConcurrentTasks":1}"#),
                req(3, "startKeepalive", #"{"iosEarliestProcessingBeginMinutes":600}"#), advance(4, "1000"),
            ])
        let wake = try #require(lines.firstIndex(of: Self.evState("background", at: "900", identifier: refreshID)))
        #expect(lines[wake + 1] == evLaunched(refreshID, at: "900"))
        let states = Replies.events("os/appStateChanged", in: lines).compactMap { $0["state"]?.stringValue }
        #expect(states == ["suspended", "background", "suspended"])
        #expect(lines.contains(Self.evState("suspended", at: "933")))
    }

    /// `os/openApp` brings a suspended app to the foreground; processing requests wait there
    /// (`appInForeground` in `os/explain` and `os/launchDeferred`), refresh requests do not;
    /// `os/sendToBackground` lets the processing request launch on the next advance (a control launches nothing).
    @Test func foregroundBlocksProcessingLaunches() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, Self.statesPolicy), req(2, "startKeepalive", #"{"iosEarliestRefreshBeginMinutes":600}"#),
                advance(3, "10"), openApp(4), openApp(5), advance(6, "1000"), explain(7, processingID), state(8),
                Self.toBackground(9), advance(10, "0"),
            ])
        #expect(lines.contains(Self.evState("foreground", at: "10")))
        #expect(
            lines.contains(failure(5, -32002, "Invalid state: cannot open the app: it is already in the foreground")))
        let e = try Replies.explanation(7, in: lines)
        #expect(e.status == .pending && e.nextPossibleAt == nil)
        #expect(e.reasons.map(\.factor) == [.appInForeground])
        #expect(Replies.events("os/launchDeferred", in: lines).count == 1)
        #expect(try Replies.state(8, in: lines).ios?.appState == .foreground)
        let back = try #require(lines.firstIndex(of: Self.evState("background", at: "1010")))
        #expect(lines[back + 1] == ok(9, #"{"at":1010,"state":"background"}"#))
        #expect(lines[back + 2] == evLaunched(processingID, at: "1010"))
    }

    /// Opening the app expires a running task, cause `foreground`: a refresh task (Apple's
    /// engineers, forums thread 764762) and a processing task alike; the seed's handler completes it.
    @Test(arguments: [
        (refreshID, "iosEarliestProcessingBeginMinutes"), (processingID, "iosEarliestRefreshBeginMinutes"),
    ])
    func foregroundExpiresARunningTask(_ identifier: String, _ otherLater: String) throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, Self.statesPolicy), req(2, "startKeepalive", #"{"\#(otherLater)":600}"#),
                advance(3, "900"), openApp(4), state(5),
            ])
        let opened = try #require(lines.firstIndex(of: Self.evState("foreground", at: "900")))
        #expect(lines[opened + 1] == evExpired(identifier, at: "900", cause: "foreground"))
        #expect(lines[opened + 2].contains(#""at":900,"identifier":"\#(identifier)","success":false"#))
        let s = try Replies.state(5, in: lines)
        #expect(s.ios?.runningTasks.isEmpty == true && s.counters.expired == 1 && s.counters.completed == 1)
        #expect(s.ios?.appState == .foreground)
    }

    /// With both tasks running (no concurrency limit), opening the app expires both: the seed's
    /// refresh handler lets go of the processing task (I5), whose own handler then finds none, and
    /// the watchdog kills the app 5 s later; `--profile strict` completes both (`docs/findings.md`).
    @Test(arguments: ["seed", "strict"])
    func openingTheAppWhileBothTasksRunGetsItKilled(_ profile: String) throws {
        let lines = try Plugin.lines(
            iosFlags() + ["--profile", profile],
            [
                setPolicy(1, Self.statesPolicy), req(2, "startKeepalive"), advance(3, "900"), openApp(4),
                advance(5, "10"),
            ])
        let expired = Replies.events("os/taskExpired", in: lines).compactMap { $0["identifier"]?.stringValue }
        #expect(expired == [refreshID, processingID])
        let completed = Replies.events("os/taskCompleted", in: lines).compactMap { $0["identifier"]?.stringValue }
        let killed = lines.contains(evAppTerminated("watchdog", at: "905", identifier: processingID))
        if profile == "seed" {
            #expect(completed == [refreshID] && killed)
        } else {
            #expect(completed == [refreshID, processingID] && !killed)
        }
    }

    /// A terminated app is `notRunning`; `os/openApp` starts it in the foreground (announced by
    /// `os/appLaunched`), a cold start for a task in the background.
    @Test func processStartsAndEnds() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, Self.statesPolicy), req(2, "startKeepalive"), terminate(3, "system"), state(4),
                Self.toBackground(5), openApp(6), state(7), terminate(8, "system"), advance(9, "900"), state(10),
            ])
        #expect(try Replies.state(4, in: lines).ios?.appState == .notRunning)
        #expect(
            lines.contains(
                failure(
                    5, -32002, "Invalid state: cannot send the app to the background: it is notRunning, not foreground")
            ))
        #expect(try Replies.state(7, in: lines).ios?.appState == .foreground)
        #expect(try Replies.state(10, in: lines).ios?.appState == .background)
        #expect(!lines.contains { $0.contains(#""state":"foreground""#) && $0.contains("os/appStateChanged") })
    }

    /// `suspendDelaySecs` is seconds from 0 to a year; `appStates` a boolean.
    @Test func badPolicyMembers() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [setPolicy(1, #"{"suspendDelaySecs":-1}"#), setPolicy(2, #"{"appStates":1}"#)])
        #expect(lines[0].contains(#""code":-32602"#) && lines[0].contains("suspendDelaySecs"))
        #expect(lines[1].contains(#""code":-32602"#) && lines[1].contains("appStates"))
    }
}
