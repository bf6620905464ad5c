import HostTestSupport
import Testing

/// Contract 5, the `os/` controls: results, errors, and that an error changes nothing.
@Suite("os/ controls")
struct OSControlTests {
    /// A busy plugin: keepalive (processing timer 100), a pending wait (id 2), a
    /// refresh task launched at 0, the clock at 1.
    static let setup = [
        req(1, "startKeepalive", #"{"iosProcessingSafetyTimeoutSecs":100}"#), req(2, "waitForCancel"),
        launch(3, refreshID), advance(4, "1"),
    ]

    static var busyState: StateLine {
        var s = StateLine()
        s.now = "1"
        s.active(refreshID, at: "0")
        s.pendingCancelInvoke = "2"
        s.safetyTimer = "28"
        s.config.processingSafety = "100"
        s.launched = 1
        s.pendingRequests = [requestJSON(processingID, "900")]
        return s
    }

    static let p = "Invalid params: "
    static let errors: [(String, String)] = [
        (
            launch(6, "com.example.app.nope"),
            failure(
                6, -32602,
                p
                    + #"no launch handler is registered for \"com.example.app.nope\" (registered: "#
                    + #"com.example.app.bg-processing, com.example.app.bg-refresh)"#
            )
        ),
        (
            launch(6, processingID),
            failure(
                6, -32002,
                "Invalid state: cannot launch \(processingID): \(refreshID) is still running (the OS runs one task "
                    + "at a time)"
            )
        ),
        (req(6, "os/launch"), failure(6, -32602, p + #"\"identifier\" must be a string, got nothing"#)),
        (
            req(6, "os/launch", #"{"identifier":7}"#),
            failure(6, -32602, p + #"\"identifier\" must be a string, got number"#)
        ),
        (
            req(6, "os/launch", "[\"\(refreshID)\"]"),
            failure(6, -32602, p + "params must be an object (named parameters), not an array")
        ),
        (
            expire(6, "com.example.app.nope"),
            failure(
                6, -32602,
                p
                    + #"no launch handler is registered for \"com.example.app.nope\" (registered: "#
                    + #"com.example.app.bg-processing, com.example.app.bg-refresh)"#
            )
        ),
        (
            expire(6, processingID),
            failure(6, -32002, "Invalid state: cannot expire \(processingID): it is not running")
        ),
        (advance(6, "-1"), failure(6, -32602, p + #"\"seconds\" must be a number >= 0, got -1"#)),
        (advance(6, "-0.000000001"), failure(6, -32602, p + #"\"seconds\" must be a number >= 0, got -0.000000001"#)),
        (advance(6, "1e400"), failure(6, -32602, p + #"\"seconds\" must be a finite number of seconds, got number"#)),
        (advance(6, #""5""#), failure(6, -32602, p + #"\"seconds\" must be a finite number of seconds, got string"#)),
        (
            req(6, "os/advanceTime"),
            failure(6, -32602, p + #"\"seconds\" must be a finite number of seconds, got nothing"#)
        ),
        (
            conditions(6, #"{"autoLaunch":true,"backgroundRefreshStatus":"off"}"#),
            failure(
                6, -32602, p + #"\"backgroundRefreshStatus\" must be one of available, denied, restricted, got string"#)
        ),
        (
            conditions(6, #"{"externalPower":"yes","networkConnected":false}"#),
            failure(6, -32602, p + #"\"externalPower\" must be a boolean, got string"#)
        ),
        (
            req(6, "os/submit", #"{"identifier":"\#(refreshID)","kind":"weekly"}"#),
            failure(6, -32602, p + #"\"kind\" must be one of refresh, processing, got string"#)
        ),
        (
            req(6, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh","requiresExternalPower":true}"#),
            failure(6, -32602, p + #"\"kind\" must be processing when constraints are set, got refresh"#)
        ),
    ]

    /// Every `os/` error (-32602 for an unregistered identifier or bad params,
    /// -32002 for what cannot apply now) leaves the plugin's state untouched.
    @Test(arguments: errors)
    func osErrorChangesNothing(request: String, reply: String) throws {
        let lines = try Plugin.lines([], Self.setup + [state(5), request, state(7)])
        #expect(Array(lines.suffix(3)) == [Self.busyState.line(5), reply, Self.busyState.line(7)])
    }

    /// os/launch with nothing pending for the identifier is -32002 and changes nothing.
    @Test func launchWithoutPendingRequest() throws {
        let lines = try Plugin.lines(
            [], [req(1, "startKeepalive"), req(2, "stopKeepalive"), launch(3, refreshID), state(4)])
        #expect(
            lines == [
                ok(1), ok(2),
                failure(3, -32002, "Invalid state: cannot launch \(refreshID): no request for it is pending"),
                StateLine().line(4),
            ])
    }

    /// os/launch takes the pending request (it is gone) and ignores earliestBeginDate.
    @Test func launchTakesTheRequest() throws {
        let lines = try Plugin.lines(
            [], [req(1, "startKeepalive"), launch(2, processingID), req(3, "os/pendingTaskRequests")])
        #expect(lines == [ok(1), launched(2, processingID, at: "0"), ok(3, "[\(requestJSON(refreshID, "900"))]")])
    }

    /// os/expire a second time: the task was completed by its handler, so it is not running.
    @Test func expireTwice() throws {
        let lines = try Plugin.lines([], Self.setup + [expire(5, refreshID), expire(6, refreshID)])
        #expect(
            Array(lines.suffix(3)) == [
                ok(2), ok(5), failure(6, -32002, "Invalid state: cannot expire \(refreshID): it is not running"),
            ])
    }

    /// os/advanceTime under `--clock real` is -32002 and changes nothing (but the
    /// real clock's own `now`).
    @Test func advanceTimeUnderRealClock() throws {
        let lines = try Plugin.lines(
            ["--clock", "real"], [req(1, "startKeepalive"), state(2), advance(3, "5"), state(4)])
        try #require(lines.count == 4)
        #expect(
            lines[2]
                == failure(
                    3, -32002, "Invalid state: os/advanceTime needs the virtual clock; this plugin runs --clock real"))
        let withoutNow = { (line: String) in line.replacing(/"now":[0-9.e+-]+,/, with: "") }
        #expect(
            withoutNow(lines[1]).replacing(#""id":2,"#, with: "")
                == withoutNow(lines[3]).replacing(#""id":4,"#, with: ""))
        #expect(lines[1].contains(#""clock":"real""#))
        #expect(lines[1].contains(#""pendingRequests":[{"#))
    }

    /// os/advanceTime: `{now}`; 0 is allowed; plain decimals are exact to the nanosecond.
    @Test func advanceTimeResults() throws {
        let lines = try Plugin.lines(
            [], [advance(1, "0"), advance(2, "1.5"), advance(3, "0.000000001"), advance(4, "2e1"), advance(5, "-0")])
        #expect(
            lines == [
                now(1, "0"), now(2, "1.5"), now(3, "1.500000001"), now(4, "21.500000001"), now(5, "21.500000001"),
            ])
    }

    /// os/pendingTaskRequests: sorted by identifier; unknown params ignored.
    @Test func pendingTaskRequests() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "os/pendingTaskRequests"),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":0.5,"iosRequiresNetworkConnectivity":true}"#),
                req(3, "os/pendingTaskRequests", #"{"whatever":true}"#),
            ])
        #expect(
            lines == [
                ok(1, "[]"), ok(2),
                ok(3, "[\(requestJSON(processingID, "900", network: true)),\(requestJSON(refreshID, "30"))]"),
            ])
    }

    /// os/setConditions: changes the given fields only and returns all four.
    @Test func setConditions() throws {
        let lines = try Plugin.lines(
            [],
            [
                conditions(1, "{}"),
                conditions(2, #"{"externalPower":true}"#),
                conditions(3, #"{"networkConnected":false,"autoLaunch":true,"backgroundRefreshStatus":"restricted"}"#),
                state(4),
            ])
        var s = StateLine()
        s.externalPower = true
        s.networkConnected = false
        s.autoLaunch = true
        s.backgroundRefreshStatus = "restricted"
        #expect(
            lines == [
                ok(
                    1,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"available","externalPower":false,"#
                        + #""networkConnected":true}"#
                ),
                ok(
                    2,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"available","externalPower":true,"#
                        + #""networkConnected":true}"#
                ),
                ok(
                    3,
                    #"{"autoLaunch":true,"backgroundRefreshStatus":"restricted","externalPower":true,"#
                        + #""networkConnected":false}"#
                ),
                s.line(4),
            ])
    }
}
