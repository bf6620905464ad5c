import HostTestSupport
import Testing

/// Contract 5, session methods: plugin/state, plugin/reset, shutdown, and EOF.
@Suite("session: state, reset, shutdown")
struct SessionTests {
    /// plugin/state of a fresh plugin, exactly as docs/protocol.md shows it.
    @Test func stateFields() throws {
        let lines = try Plugin.lines([], [state(1)])
        let documented: String =
            #"{"activeTask":null,"cancelInvokePending":false,"clock":"virtual","conditions":{"autoLaunch":false,"#
            + #""backgroundRefreshStatus":"available","externalPower":false,"networkConnected":true},"#
            + #""config":{"iosEarliestProcessingBeginMinutes":15,"iosEarliestRefreshBeginMinutes":15,"#
            + #""iosProcessingSafetyTimeoutSecs":null,"iosRequiresExternalPower":false,"#
            + #""iosRequiresNetworkConnectivity":false,"iosSafetyTimeoutSecs":28},"counters":{"completed":0,"#
            + #""dropped":0,"expired":0,"launched":0,"violations":0},"notificationAuthorizationRequests":1,"#
            + #""now":0,"pendingCancelInvoke":null,"pendingRequests":[],"profile":"seed","#
            + #""registered":[{"identifier":"com.example.app.bg-processing","kind":"processing"},"#
            + #"{"identifier":"com.example.app.bg-refresh","kind":"refresh"}],"safetyTimer":null}"#
        #expect(lines == [ok(1, documented)])
        #expect(StateLine().line(1) == lines.first)
    }

    /// plugin/state reports the pending invoke's id as sent (string ids too) and
    /// `--clock` / `--profile`.
    @Test func stateReportsIDsAndFlags() throws {
        let lines = try Plugin.lines(
            ["--clock", "real", "--profile", "strict"],
            [
                #"{"jsonrpc":"2.0","id":"wait-1","method":"waitForCancel"}"#, state(2),
            ])
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains(#""pendingCancelInvoke":"wait-1""#))
        #expect(line.contains(#""cancelInvokePending":true"#))
        #expect(line.contains(#""clock":"real""#))
        #expect(line.contains(#""profile":"strict""#))
    }

    /// plugin/reset: rejects the pending wait with `reset` first, then everything is
    /// as at start (state, config, requests, timer, conditions, counters, clock 0),
    /// with no events for what it discards.
    @Test(arguments: ["seed", "strict"])
    func reset(profile: String) throws {
        let lines = try Plugin.lines(
            ["--events", "--profile", profile],
            [
                req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":5,"iosEarliestRefreshBeginMinutes":1}"#),
                req(2, "waitForCancel"), req(3, "waitForCancel"),
                launch(4, refreshID),
                conditions(5, #"{"autoLaunch":true,"externalPower":true,"backgroundRefreshStatus":"restricted"}"#),
                advance(6, "2"),
                req(7, "plugin/reset"),
                state(8),
                req(9, "startKeepalive"),
                req(3, "cancelCancelListener"),
            ])
        var fresh = StateLine()
        fresh.profile = profile
        let superseded = profile == "strict" ? [rejected(2, "superseded")] : []
        #expect(
            lines == evScheduled("60", "900") + [ok(1)] + superseded + [
                evLaunched(refreshID, at: "0"), evTimer("started", "5"), launched(4, refreshID, at: "0"),
                ok(
                    5,
                    #"{"autoLaunch":true,"backgroundRefreshStatus":"restricted","externalPower":true,"#
                        + #""networkConnected":true}"#
                ),
                now(6, "2"),
                rejected(3, "reset"), ok(7),
                fresh.line(8),
                // Config back to the defaults: 15 minutes from clock 0.
            ] + evScheduled("900") + [ok(9), ok(3)])
    }

    /// plugin/reset keeps `--bundle-id` and the Info.plist.
    @Test func resetKeepsFlags() throws {
        let plist = try TemporaryFile(InfoPlistText.make(identifiers: ["org.x.bg-refresh"], modes: ["fetch"]))
        let lines = try Plugin.lines(
            ["--events", "--bundle-id", "org.x", "--info-plist", plist.path],
            [
                req(1, "plugin/reset"), req(2, "startKeepalive"),
            ])
        #expect(
            lines == [
                ok(1),
                event("os/requestSubmitted", requestJSON("org.x.bg-refresh", "900")),
                evSubmitFailed("org.x.bg-processing", "notPermitted"),
                ok(2),
            ])
    }

    /// shutdown: rejects the pending wait with `shutdown`, resolves, exits 0; input
    /// after it is not read.
    @Test func shutdown() throws {
        let run = try Plugin.run([], [req(1, "waitForCancel"), req(2, "shutdown"), state(3)])
        #expect(!run.timedOut)
        #expect(run.status == 0)
        #expect(run.lines == [rejected(1, "shutdown"), ok(2)])
    }

    /// shutdown with nothing pending just resolves and exits 0.
    @Test func shutdownWithoutPending() throws {
        let run = try Plugin.run([], [req(1, "shutdown")])
        #expect(run.status == 0)
        #expect(run.lines == [ok(1)])
    }

    /// shutdown inside a batch: the rest of the batch is still answered.
    @Test func shutdownInBatch() throws {
        let run = try Plugin.run([], ["[\(req(1, "shutdown")),\(advance(2, "3"))]", state(3)])
        #expect(run.status == 0)
        #expect(run.lines == ["[\(ok(1)),\(now(2, "3"))]"])
    }

    /// EOF: exit 0 after writing everything; a wait still pending is not answered.
    @Test func endOfInput() throws {
        let run = try Plugin.run([], [req(1, "waitForCancel"), advance(2, "1")])
        #expect(!run.timedOut)
        #expect(run.status == 0)
        #expect(run.lines == [now(2, "1")])
    }

    /// EOF on an empty input: exit 0, nothing written.
    @Test func emptyInput() throws {
        let run = try Plugin.run([], input: [])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
    }
}
