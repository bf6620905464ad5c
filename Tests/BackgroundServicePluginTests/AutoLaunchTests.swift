import HostTestSupport
import Testing

/// Contract 5, the autoLaunch policy, black-box.
@Suite("autoLaunch policy")
struct AutoLaunchTests {
    static func conds(autoLaunch: Bool = true, status: String = "available", power: Bool = false, network: Bool = true)
        -> String
    {
        #"{"autoLaunch":\#(autoLaunch),"backgroundRefreshStatus":"\#(status)","externalPower":\#(power),"#
            + #""networkConnected":\#(network)}"#
    }

    /// A request becomes eligible at its earliestBeginDate, not a nanosecond before.
    @Test func eligibleAtEarliestBeginDate() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(
                    1, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":1,"iosEarliestProcessingBeginMinutes":1}"#),
                conditions(2, #"{"autoLaunch":true}"#),
                advance(3, "59.999999999"),
                advance(4, "0.000000001"),
                state(5),
            ])
        var s = StateLine()
        s.now = "60"
        s.config.refreshMinutes = "1"
        s.config.processingMinutes = "1"
        s.autoLaunch = true
        s.active(refreshID, at: "60")
        s.safetyTimer = "88"
        s.launched = 1
        s.pendingRequests = [requestJSON(processingID, "60")]
        #expect(
            lines == evScheduled("60") + [
                ok(1), ok(2, Self.conds()), now(3, "59.999999999"),
                evLaunched(refreshID, at: "60"), evTimer("started", "88"), now(4, "60"),
                s.line(5),
            ])
    }

    /// Never while a task is active: the eligible processing request waits, and
    /// launches at the moment the active task completes (here schedule-next fails,
    /// so the waiting request is not replaced).
    @Test func neverWhileActiveLaunchesWhenCompleted() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":2000}"#),
                conditions(2, #"{"autoLaunch":true}"#),
                advance(3, "1000"),
                conditions(4, #"{"backgroundRefreshStatus":"denied"}"#),
                req(5, "completeBgTask"),
                advance(6, "50"),
            ])
        #expect(
            lines == evScheduled("900") + [
                ok(1), ok(2, Self.conds()),
                evLaunched(refreshID, at: "900"), evTimer("started", "2900"), now(3, "1000"),
                ok(4, Self.conds(status: "denied")),
                evCompleted(refreshID, true, at: "1000"),
                evSubmitFailed(refreshID, "unavailable"), evSubmitFailed(processingID, "unavailable"),
                evTimer("invalidated", "2900"), ok(5),
                evLaunched(processingID, at: "1000"), now(6, "1050"),
            ])
    }

    /// At equal times timers fire before launches, and refresh launches before
    /// processing: at 28 the safety timer ends the first refresh task, then the
    /// refresh request it resubmitted for 28 launches, not the processing one
    /// waiting since 0.
    @Test func timersBeforeLaunchesRefreshBeforeProcessing() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(
                    1, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":0,"iosEarliestProcessingBeginMinutes":0}"#),
                conditions(2, #"{"autoLaunch":true}"#),
                advance(3, "28"),
            ])
        #expect(
            lines == evScheduled("0") + [
                ok(1), ok(2, Self.conds()),
                evLaunched(refreshID, at: "0"), evTimer("started", "28"),
                evTimer("fired", "28"), evCompleted(refreshID, false, at: "28"), evSubmitted(refreshID, "28"),
                evSubmitted(processingID, "28"),
                evLaunched(refreshID, at: "28"), evTimer("started", "56"),
                now(3, "28"),
            ])
    }

    /// Refresh before processing at equal times; an earlier processing request goes first.
    @Test(arguments: [("15", "15", refreshID, "900"), ("2", "1", processingID, "60"), ("1", "2", refreshID, "60")])
    func refreshBeforeProcessing(refreshMinutes: String, processingMinutes: String, first: String, at: String) throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                conditions(1, #"{"autoLaunch":true}"#),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":\#(refreshMinutes),"#
                        + #""iosEarliestProcessingBeginMinutes":\#(processingMinutes)}"#
                ),
                advance(3, "1000"),
            ])
        try #require(lines.count >= 6)
        #expect(lines[4] == evLaunched(first, at: at))
    }

    /// A processing request also needs its constraints met.
    @Test(arguments: [
        (true, false, false, true, false), (true, false, true, true, true),
        (false, true, true, false, false), (false, true, false, true, true),
        (true, true, true, false, false), (true, true, true, true, true), (false, false, false, false, true),
    ])
    func processingConstraints(needsPower: Bool, needsNetwork: Bool, power: Bool, network: Bool, launches: Bool) throws
    {
        let lines = try Plugin.lines(
            ["--events"],
            [
                conditions(1, #"{"autoLaunch":true,"externalPower":\#(power),"networkConnected":\#(network)}"#),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":100,"iosEarliestProcessingBeginMinutes":1,"#
                        + #""iosRequiresExternalPower":\#(needsPower),"#
                        + #""iosRequiresNetworkConnectivity":\#(needsNetwork)}"#
                ),
                advance(3, "120"),
            ])
        let launch = launches ? [evLaunched(processingID, at: "60")] : []
        #expect(
            lines == [ok(1, Self.conds(power: power, network: network))]
                + evScheduled("6000", "60", power: needsPower, network: needsNetwork) + [ok(2)] + launch + [
                    now(3, "120")
                ])
    }

    /// A request whose constraints are met late launches at the moment they are met
    /// (the later of earliestBeginDate and eligibility), as time next advances;
    /// `os/setConditions` itself launches nothing.
    @Test func constraintsMetLater() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                conditions(1, #"{"autoLaunch":true}"#),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":100,"iosEarliestProcessingBeginMinutes":1,"#
                        + #""iosRequiresExternalPower":true}"#
                ),
                advance(3, "120"),
                conditions(4, #"{"externalPower":true}"#),
                advance(5, "30"),
            ])
        #expect(
            lines == [ok(1, Self.conds())] + evScheduled("6000", "60", power: true) + [
                ok(2), now(3, "120"), ok(4, Self.conds(power: true)),
                evLaunched(processingID, at: "120"), now(5, "150"),
            ])
    }

    /// Off by default: time passes and nothing launches. Turning it on launches
    /// nothing by itself; the next advance launches at that moment.
    @Test func setConditionsLaunchesNothing() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(1, "startKeepalive"), advance(2, "1000"), conditions(3, #"{"autoLaunch":true}"#), state(4),
                advance(5, "0"),
            ])
        var s = StateLine()
        s.now = "1000"
        s.autoLaunch = true
        s.scheduled("900")
        #expect(
            lines == evScheduled("900") + [
                ok(1), now(2, "1000"), ok(3, Self.conds()), s.line(4),
                evLaunched(refreshID, at: "1000"), evTimer("started", "1028"), now(5, "1000"),
            ])
    }

    /// During one long advance every timer fires and every launch happens at its
    /// own time, in order.
    @Test func eachAtItsOwnTime() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(
                    1, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":1,"iosEarliestProcessingBeginMinutes":100}"#),
                conditions(2, #"{"autoLaunch":true}"#),
                advance(3, "200"),
            ])
        #expect(
            lines == evScheduled("60", "6000") + [
                ok(1), ok(2, Self.conds()),
                evLaunched(refreshID, at: "60"), evTimer("started", "88"),
                evTimer("fired", "88"), evCompleted(refreshID, false, at: "88"), evSubmitted(refreshID, "148"),
                evSubmitted(processingID, "6088"),
                evLaunched(refreshID, at: "148"), evTimer("started", "176"),
                evTimer("fired", "176"), evCompleted(refreshID, false, at: "176"), evSubmitted(refreshID, "236"),
                evSubmitted(processingID, "6176"),
                now(3, "200"),
            ])
    }

    /// A request `os/submit` made for an identifier without a launch handler is
    /// never auto-launched (and does not crash the plugin).
    @Test func unregisteredRequestNeverLaunches() throws {
        let plist = try TemporaryFile(
            InfoPlistText.make(
                identifiers: [refreshID, processingID, "com.example.app.extra"], modes: ["fetch", "processing"]))
        let lines = try Plugin.lines(
            ["--info-plist", plist.path],
            [
                req(
                    1, "os/submit", #"{"identifier":"com.example.app.extra","kind":"processing","earliestBeginDate":5}"#
                ),
                conditions(2, #"{"autoLaunch":true}"#),
                advance(3, "10"),
                req(4, "os/pendingTaskRequests"),
            ])
        let extra = requestJSON("com.example.app.extra", "5", kind: "processing")
        #expect(lines == [ok(1, extra), ok(2, Self.conds()), now(3, "10"), ok(4, "[\(extra)]")])
    }
}
