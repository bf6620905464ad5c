import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rule ios.launch-decision: the system launches a pending request at its
/// planned time only when every factor allows it; each factor keeps it from
/// launching, `os/explain` names it, and the launch follows once it is gone.
@Suite("ios: the launch decision")
struct LaunchDecisionTests {
    /// A request submitted directly (nothing else pending), due at 900.
    static func submit(_ id: Int, _ identifier: String, power: Bool = false, network: Bool = false) -> String {
        let kind = kindOf(identifier)
        let constraints =
            kind == "processing"
            ? #","requiresExternalPower":\#(power),"requiresNetworkConnectivity":\#(network)"# : ""
        let request = #"{"identifier":"\#(identifier)","kind":"\#(kind)","earliestBeginDate":900\#(constraints)}"#
        return req(id, "os/submit", request)
    }

    /// (factor, identifier, needs power, needs network, what sets it, what clears it).
    static let conditionFactors: [(LaunchFactor, String, Bool, Bool, String, String)] = [
        (
            .lowBattery, refreshID, false, false, conditions(3, #"{"batteryLevel":0.19}"#),
            conditions(12, #"{"batteryLevel":0.2}"#)
        ),
        (
            .lowBattery, processingID, false, false, conditions(3, #"{"batteryLevel":0}"#),
            conditions(12, #"{"batteryLevel":1}"#)
        ),
        (
            .lowPowerMode, refreshID, false, false, conditions(3, #"{"lowPowerMode":true}"#),
            conditions(12, #"{"lowPowerMode":false}"#)
        ),
        (
            .lowPowerMode, processingID, false, false, conditions(3, #"{"lowPowerMode":true}"#),
            conditions(12, #"{"lowPowerMode":false}"#)
        ),
        (
            .backgroundAppRefreshOff, refreshID, false, false, conditions(3, #"{"backgroundRefreshStatus":"denied"}"#),
            conditions(12, #"{"backgroundRefreshStatus":"available"}"#)
        ),
        (
            .backgroundAppRefreshOff, refreshID, false, false,
            conditions(3, #"{"backgroundRefreshStatus":"restricted"}"#),
            conditions(12, #"{"backgroundRefreshStatus":"available"}"#)
        ),
        (.forceQuit, refreshID, false, false, terminate(3, "forceQuit"), openApp(12)),
        (
            .autoLaunchOff, refreshID, false, false, conditions(3, #"{"autoLaunch":false}"#),
            conditions(12, #"{"autoLaunch":true}"#)
        ),
        (
            .deviceInUse, processingID, false, false, conditions(3, #"{"deviceInUse":true}"#),
            conditions(12, #"{"deviceInUse":false}"#)
        ),
        (
            .externalPower, processingID, true, false, conditions(3, #"{"externalPower":false}"#),
            conditions(12, #"{"externalPower":true}"#)
        ),
        (
            .networkConnectivity, processingID, false, true, conditions(3, #"{"networkConnected":false}"#),
            conditions(12, #"{"networkConnected":true}"#)
        ),
    ]

    /// Each condition keeps the request pending past its date, `os/explain` names it
    /// (and only it) with no `nextPossibleAt`; once cleared, the request launches as
    /// time next advances.
    @Test(arguments: conditionFactors)
    func eachConditionBlocksUntilCleared(
        factor: LaunchFactor, identifier: String, power: Bool, network: Bool, set: String, clear: String
    ) throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), Self.submit(2, identifier, power: power, network: network), set,
                advance(10, "1000"), explain(11, identifier), clear, advance(13, "0"), state(14),
            ])
        let explained = try #require(Replies.index(of: #"{"id":11,"#, in: lines))
        #expect(!lines[..<explained].contains { $0.contains(#""method":"os/taskLaunched""#) })
        let why = try Replies.explanation(11, in: lines)
        #expect(why.status == .pending && why.reasons.map(\.factor) == [factor] && why.nextPossibleAt == nil)
        #expect(why.reasons.first?.until == nil)
        let deferred = Replies.events("os/launchDeferred", in: lines)
        #expect(deferred.count == 1 && deferred.first?["at"]?.description == "900")
        #expect(lines[explained...].contains(evLaunched(identifier, at: "1000")))
        #expect(try Replies.state(14, in: lines).activeTask?.identifier == identifier)
    }

    /// Background App Refresh off stops refresh launches only; a battery at exactly
    /// 20 % is not low.
    @Test(arguments: [#"{"backgroundRefreshStatus":"denied"}"#, #"{"batteryLevel":0.2}"#])
    func processingIsNotStoppedBy(condition: String) throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), Self.submit(2, processingID), conditions(3, condition), advance(4, "1000"),
            ])
        #expect(lines.contains(evLaunched(processingID, at: "900")))
    }

    /// Never before `earliestBeginDate`; with the default policy, at its planned time
    /// (the seeded delay after it), not a nanosecond before.
    @Test(arguments: UInt64(0)..<4)
    func earliestBeginDateThenSystemDelay(seed: UInt64) throws {
        let first = try Plugin.lines(
            iosFlags(seed: seed, legacy: true), [Self.submit(1, refreshID), explain(2, refreshID)])
        let why = try Replies.explanation(2, in: first)
        let planned = try #require(why.plannedAt)
        #expect(planned >= VirtualTime(seconds: 900)! && planned <= VirtualTime(seconds: 2700)!)
        #expect(why.nextPossibleAt == planned && why.earliestBeginDate == VirtualTime(seconds: 900))
        let delayed = planned > VirtualTime(seconds: 900)!
        #expect(why.reasons.map(\.factor) == (delayed ? [.earliestBeginDate, .systemDelay] : [.earliestBeginDate]))
        #expect(
            why.reasons[0]
                == LaunchReason(
                    factor: .earliestBeginDate, detail: "earliestBeginDate in 900 s", until: VirtualTime(seconds: 900)))
        let before = planned.adding(nanoseconds: -1).decimalSeconds
        let lines = try Plugin.lines(
            iosFlags(seed: seed, legacy: true),
            [
                Self.submit(1, refreshID), advance(2, before), advance(3, "0.000000001"),
            ])
        #expect(
            Array(lines.suffix(4)) == [
                now(2, before), evLaunched(refreshID, at: planned.decimalSeconds),
                evTimer("started", planned.adding(seconds: 28).decimalSeconds), now(3, planned.decimalSeconds),
            ])
    }

    /// Rate limiting: a second launch of one identifier waits for the minimum spacing
    /// (600 s after the first), named with its end.
    @Test func rateLimit() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                setPolicy(1, calmPolicy), Self.submit(2, refreshID), advance(3, "900"), req(4, "completeBgTask"),
                req(5, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh","earliestBeginDate":950}"#),
                explain(6, refreshID), advance(7, "1000"),
            ])
        let why = try Replies.explanation(6, in: lines)
        #expect(
            why.reasons == [
                LaunchReason(
                    factor: .earliestBeginDate, detail: "earliestBeginDate in 50 s", until: VirtualTime(seconds: 950)),
                LaunchReason(
                    factor: .rateLimit, detail: "launched 0 s ago; at least 600 s between its launches",
                    until: VirtualTime(seconds: 1500)),
            ])
        #expect(why.nextPossibleAt == VirtualTime(seconds: 1500))
        #expect(lines.contains(evLaunched(refreshID, at: "1500")))
    }

    /// The daily energy budget: each launch spends one; with a budget of one launch a
    /// day the next is affordable a day later, and `os/explain` says until when. (The
    /// seed's `completeBgTask` resubmits both requests for 1800.)
    @Test func energyBudget() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                setPolicy(1, calmPolicy), setPolicy(2, #"{"energyBudgetLaunches":1,"minLaunchSpacingSecs":0}"#),
                Self.submit(3, refreshID), advance(4, "900"), req(5, "completeBgTask"), explain(6, refreshID), state(7),
                advance(8, "90000"),
            ])
        let why = try Replies.explanation(6, in: lines)
        #expect(
            why.reasons == [
                LaunchReason(
                    factor: .earliestBeginDate, detail: "earliestBeginDate in 900 s",
                    until: VirtualTime(seconds: 1800)),
                LaunchReason(
                    factor: .energyBudget, detail: "energy budget exhausted until day 1 00:15 (t=87300 s)",
                    until: VirtualTime(seconds: 87300)),
            ])
        #expect(why.nextPossibleAt == VirtualTime(seconds: 87300))
        let energy = try Replies.state(7, in: lines).ios?.energy
        #expect(energy == .init(launchesAvailable: 0, capacity: 1, fullAt: VirtualTime(seconds: 87300)!))
        #expect(Replies.events("os/taskLaunched", in: lines).map { $0["at"]?.description } == ["900", "87300"])
        let deferred = Replies.events("os/launchDeferred", in: lines).prefix(2)
        #expect(deferred.map { $0["at"]?.description } == ["1800", "1800"])
        #expect(deferred.allSatisfy { $0["nextPossibleAt"]?.description == "87300" })
    }

    /// One task at a time (`maxConcurrentTasks` 1): a request due while another task runs
    /// waits for it. (The seed's `completeBgTask` resubmits the processing request; it is
    /// submitted again for 900, now past.)
    @Test func taskRunning() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmOneTaskPolicy), Self.submit(2, refreshID), Self.submit(3, processingID),
                req(4, "os/setConditions", #"{"batteryLevel":0.5}"#), advance(5, "910"), explain(6, processingID),
                req(7, "completeBgTask"), Self.submit(8, processingID), advance(9, "0"),
            ])
        let why = try Replies.explanation(6, in: lines)
        #expect(
            why.reasons == [
                LaunchReason(
                    factor: .taskRunning, detail: "\(refreshID) is running; the system runs one task at a time")
            ])
        #expect(why.nextPossibleAt == nil)
        #expect(Array(lines.suffix(2)) == [evLaunched(processingID, at: "910"), now(9, "910")])
        let deferred = Replies.events("os/launchDeferred", in: lines).first
        #expect(deferred?["reasons"]?.description.contains("taskRunning") == true)
    }

    /// Several factors at once are all named, in the documented order.
    @Test func everyReasonIsNamed() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), Self.submit(2, processingID, power: true, network: true),
                conditions(
                    3,
                    #"{"autoLaunch":false,"batteryLevel":0.1,"lowPowerMode":true,"deviceInUse":true,"#
                        + #""networkConnected":false}"#),
                terminate(4, "forceQuit"), explain(5, processingID),
            ])
        #expect(
            try Replies.explanation(5, in: lines).reasons.map(\.factor) == [
                .forceQuit, .autoLaunchOff, .lowBattery, .lowPowerMode, .deviceInUse, .externalPower,
                .networkConnectivity,
                .earliestBeginDate,
            ])
    }
}
