import HostTestSupport
import Testing

/// Contract 4: register-at-load, refresh-launch, processing-launch, one-timer, one-active.
@Suite("launches")
struct LaunchTests {
    /// register-at-load: before serving anything both identifiers are registered
    /// with their kinds, and notification authorization was requested once.
    @Test func registerAtLoad() throws {
        let lines = try Plugin.lines(["--bundle-id", "org.demo.app"], [state(1), initialize(2, events: false)])
        var s = StateLine()
        s.registered = [
            #"{"identifier":"org.demo.app.bg-processing","kind":"processing"}"#,
            #"{"identifier":"org.demo.app.bg-refresh","kind":"refresh"}"#,
        ]
        #expect(
            lines == [
                s.line(1),
                ok(
                    2,
                    #"{"bundleIdentifier":"org.demo.app","clock":"virtual","profile":"seed","protocolVersion":"1","#
                        + #""serverInfo":{"name":"background-service-plugin","version":"0.1.0"},"#
                        + #""taskIdentifiers":{"processing":"org.demo.app.bg-processing","#
                        + #""refresh":"org.demo.app.bg-refresh"}}"#
                ),
            ])
        #expect(s.resultJSON.contains(#""notificationAuthorizationRequests":1"#))
    }

    /// register-at-load, with an Info.plist that does not permit the refresh
    /// identifier: `register` refuses it (logged), so it can never be launched.
    @Test func registerAtLoadRefusedByPlist() throws {
        let plist = try TemporaryFile(InfoPlistText.make(identifiers: [processingID], modes: ["fetch", "processing"]))
        let run = try Plugin.run(["--info-plist", plist.path], [state(1), launch(2, refreshID)])
        var s = StateLine()
        s.registered = [#"{"identifier":"\#(processingID)","kind":"processing"}"#]
        #expect(run.status == 0)
        #expect(
            run.lines == [
                s.line(1),
                failure(
                    2, -32602,
                    #"Invalid params: no launch handler is registered for \"\#(refreshID)\" (registered: "#
                        + #"\#(processingID))"#
                ),
            ])
        #expect(run.stderr.contains("BGTaskScheduler.register refused \(refreshID)"))
    }

    /// refresh-launch: the refresh task becomes active, gets an expiration handler,
    /// and a safety timer of `iosSafetyTimeoutSecs` always starts.
    @Test func refreshLaunch() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":20}"#),
                advance(2, "3"),
                req(3, "waitForCancel"),
                launch(4, refreshID),
                state(5),
                expire(6, refreshID),
            ])
        var s = StateLine()
        s.now = "3"
        s.config.safety = "20"
        s.active(refreshID, at: "3")
        s.safetyTimer = "23"
        s.launched = 1
        s.pendingCancelInvoke = "3"
        s.pendingRequests = [requestJSON(processingID, "900")]
        #expect(
            lines == evScheduled("900") + [
                ok(1), now(2, "3"),
                evLaunched(refreshID, at: "3"), evTimer("started", "23"), launched(4, refreshID, at: "3"),
                s.line(5),
                // The expiration handler the launch installed runs.
                evExpired(refreshID, at: "3"), ok(3), evCompleted(refreshID, false, at: "3"),
                evSubmitted(refreshID, "903"), evSubmitted(processingID, "903"), evTimer("invalidated", "23"), ok(6),
            ])
    }

    /// processing-launch: the processing task becomes active with an expiration
    /// handler; a safety timer starts only when `iosProcessingSafetyTimeoutSecs > 0`.
    @Test(
        arguments: [
            (nil, nil), ("0", nil), ("-5", nil), ("120", "120"), ("0.5", "0.5"),
        ] as [(String?, String?)])
    func processingLaunch(timeout: String?, deadline: String?) throws {
        let params = timeout.map { #"{"iosProcessingSafetyTimeoutSecs":\#($0)}"# }
        let lines = try Plugin.lines(
            ["--events"], [req(1, "startKeepalive", params), launch(2, processingID), state(3)])
        var s = StateLine()
        s.config.processingSafety = timeout ?? "null"
        s.active(processingID, at: "0")
        s.safetyTimer = deadline
        s.launched = 1
        s.pendingRequests = [requestJSON(refreshID, "900")]
        let timerEvents = deadline.map { [evTimer("started", $0)] } ?? []
        #expect(
            lines == evScheduled("900") + [ok(1), evLaunched(processingID, at: "0")] + timerEvents + [
                launched(2, processingID, at: "0"), s.line(3),
            ])
    }

    /// processing-launch: without a timer only the expiration handler ends the task;
    /// advancing a long time does nothing.
    @Test func processingWithoutTimerWaitsForExpiration() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, processingID),
                advance(4, "100000"), expire(5, processingID),
            ])
        #expect(
            lines == evScheduled("900") + [
                ok(1), evLaunched(processingID, at: "0"), launched(3, processingID, at: "0"),
                now(4, "100000"),
                evExpired(processingID, at: "100000"), ok(2), evCompleted(processingID, false, at: "100000"),
                evSubmitted(refreshID, "100900"), evSubmitted(processingID, "100900"), ok(5),
            ])
    }

    /// one-timer: starting a safety timer invalidates the previous one. The state
    /// with two launch handlers run back to back is reached with the deliberate
    /// `allow-concurrent-launch` defect (the OS normally forbids it).
    @Test func oneTimer() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive", #"{"iosProcessingSafetyTimeoutSecs":60}"#),
                launch(2, refreshID),
                launch(3, processingID),
                advance(4, "30"),
            ], environment: ["BSP_FAULT": "allow-concurrent-launch"])
        #expect(
            lines == evScheduled("900") + [
                ok(1),
                evLaunched(refreshID, at: "0"), evTimer("started", "28"), launched(2, refreshID, at: "0"),
                evLaunched(processingID, at: "0"), evTimer("invalidated", "28"), evTimer("started", "60"),
                launched(3, processingID, at: "0"),
                // The refresh timer (28) never fires.
                now(4, "30"),
            ])
    }

    /// one-timer, as the plugin runs normally: each launch has its own timer and
    /// the previous launch's timer never fires after it.
    @Test func oneTimerAcrossLaunches() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive"), launch(2, refreshID), req(3, "completeBgTask"),
                advance(4, "10"), launch(5, refreshID), advance(6, "20"), state(7),
            ])
        var s = StateLine()
        s.now = "30"
        s.active(refreshID, at: "10")
        s.safetyTimer = "38"
        s.launched = 2
        s.completed = 1
        s.pendingRequests = [requestJSON(processingID, "900")]
        #expect(
            Array(lines.suffix(5)) == [
                evLaunched(refreshID, at: "10"), evTimer("started", "38"), launched(5, refreshID, at: "10"),
                now(6, "30"), s.line(7),
            ])
    }

    /// one-active: `os/launch` while a task is active is -32002 and changes nothing;
    /// once the task completes the other one can launch.
    @Test func oneActive() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "startKeepalive"), launch(2, refreshID), state(3), launch(4, processingID), state(5),
                req(6, "completeBgTask"), launch(7, processingID),
            ])
        try #require(lines.count == 7)
        #expect(
            lines[3]
                == failure(
                    4, -32002,
                    "Invalid state: cannot launch \(processingID): \(refreshID) is still running (the OS runs one "
                        + "task at a time)"
                ))
        #expect(resultPart(lines[2]) == resultPart(lines[4]))
        #expect(lines[6] == launched(7, processingID, at: "0"))
    }
}
