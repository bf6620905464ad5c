import HostTestSupport
import Testing

/// Contract 6: events are sent only when the session asked for them, each at the
/// moment it happens, in causal order with the responses.
@Suite("events")
struct EventsTests {
    static let initResult =
        #"{"bundleIdentifier":"com.example.app","clock":"virtual","profile":"seed","protocolVersion":"1","#
        + #""serverInfo":{"name":"background-service-plugin","version":"0.1.0"},"#
        + #""taskIdentifiers":{"processing":"com.example.app.bg-processing","#
        + #""refresh":"com.example.app.bg-refresh"}}"#

    /// Without `initialize` or `--events`, no event is ever written.
    @Test func eventsOffByDefault() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "startKeepalive"), req(2, "waitForCancel"), launch(3, refreshID), advance(4, "28"),
                req(5, "stopKeepalive"),
            ])
        #expect(lines == [ok(1), launched(3, refreshID, at: "0"), ok(2), now(4, "28"), ok(5)])
    }

    /// `initialize` with `capabilities.events: true` turns them on from then on;
    /// `false` (or absent) does not.
    @Test(
        arguments: [
            (#"{"capabilities":{"events":true}}"#, true), (#"{"capabilities":{"events":false}}"#, false),
            (#"{"capabilities":{}}"#, false), (nil, false),
        ] as [(String?, Bool)])
    func eventsAfterInitialize(params: String?, on: Bool) throws {
        let lines = try Plugin.lines(
            [], [req(1, "startKeepalive"), req(2, "initialize", params), req(3, "startKeepalive")])
        #expect(lines == [ok(1), ok(2, Self.initResult)] + (on ? evScheduled("900") : []) + [ok(3)])
    }

    /// The latest `initialize` that names `events` decides (unless `--events`).
    @Test func initializeAgainTurnsEventsOff() throws {
        let lines = try Plugin.lines(
            [],
            [
                initialize(1, events: true), req(2, "startKeepalive"), initialize(3, events: false),
                req(4, "startKeepalive"),
            ])
        #expect(lines == [ok(1, Self.initResult)] + evScheduled("900") + [ok(2), ok(3, Self.initResult), ok(4)])
    }

    /// `--events` turns them on from the start; `initialize` cannot turn them off.
    @Test func eventsFlag() throws {
        let lines = try Plugin.lines(
            ["--events"], [req(1, "startKeepalive"), initialize(2, events: false), req(3, "stopKeepalive")])
        #expect(
            lines == evScheduled("900") + [
                ok(1), ok(2, Self.initResult), evCancelled(refreshID), evCancelled(processingID), ok(3),
            ])
    }

    /// `initialize` with malformed capabilities is -32602 and leaves events off.
    @Test(arguments: [
        (#"{"capabilities":true}"#, #"\"capabilities\" must be an object, got boolean"#),
        (#"{"capabilities":{"events":"yes"}}"#, #"\"capabilities.events\" must be a boolean, got string"#),
    ])
    func initializeBadCapabilities(params: String, message: String) throws {
        let lines = try Plugin.lines([], [req(1, "initialize", params), req(2, "startKeepalive")])
        #expect(lines == [failure(1, -32602, "Invalid params: " + message), ok(2)])
    }

    /// Each event kind, in causal order with the responses, in one session.
    /// (`os/violation` needs a broken plugin: the `complete-twice` defect.)
    @Test func eachEventKind() throws {
        let lines = try Plugin.lines(
            [],
            [
                initialize(1, events: true),
                req(2, "startKeepalive", #"{"iosSafetyTimeoutSecs":10}"#),
                launch(3, refreshID),
                advance(4, "10"),
                launch(5, refreshID),
                expire(6, refreshID),
                launch(7, processingID),
                req(8, "completeBgTask", #"{"success":true}"#),
                conditions(9, #"{"backgroundRefreshStatus":"denied"}"#),
                req(10, "stopKeepalive"),
                req(11, "startKeepalive"),
            ], environment: ["BSP_FAULT": "complete-twice"])
        let twice = { (id: String, at: String, success: Bool) in
            evViolation(
                "exactly-once",
                "setTaskCompleted(success: \(success)) called again for \(id) launched at \(at); ignored")
        }
        #expect(
            lines == [ok(1, Self.initResult)] + evScheduled("900") + [
                ok(2),
                evLaunched(refreshID, at: "0"), evTimer("started", "10"), launched(3, refreshID, at: "0"),
                evTimer("fired", "10"), evCompleted(refreshID, false, at: "10"), twice(refreshID, "0", false),
                evScheduled("910")[0], evScheduled("910")[1], now(4, "10"),
                evLaunched(refreshID, at: "10"), evTimer("started", "20"), launched(5, refreshID, at: "10"),
                evExpired(refreshID, at: "10"), evCompleted(refreshID, false, at: "10"), twice(refreshID, "10", false),
                evSubmitted(refreshID, "910"), evSubmitted(processingID, "910"), evTimer("invalidated", "20"), ok(6),
                evLaunched(processingID, at: "10"), launched(7, processingID, at: "10"),
                evCompleted(processingID, true, at: "10"), twice(processingID, "10", true),
                evSubmitted(refreshID, "910"), evSubmitted(processingID, "910"), ok(8),
                ok(
                    9,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"denied","externalPower":false,"#
                        + #""networkConnected":true}"#
                ),
                evCancelled(refreshID), evCancelled(processingID), ok(10),
                evSubmitFailed(refreshID, "unavailable"), evSubmitFailed(processingID, "unavailable"), ok(11),
            ])
    }

    /// plugin/reset keeps the session: events asked for by `initialize` stay on.
    @Test func resetKeepsSession() throws {
        let lines = try Plugin.lines(
            [], [initialize(1, events: true), req(2, "plugin/reset"), req(3, "startKeepalive")])
        #expect(lines == [ok(1, Self.initResult), ok(2)] + evScheduled("900") + [ok(3)])
    }

    /// plugin/reset does not turn events on either.
    @Test func resetKeepsEventsOff() throws {
        let lines = try Plugin.lines([], [req(1, "plugin/reset"), req(2, "startKeepalive")])
        #expect(lines == [ok(1), ok(2)])
    }
}
