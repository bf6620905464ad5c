import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rule ios.refresh-budget and ios.processing-budget: the OS expires a
/// launched task on its own, through the same path as `os/expire`.
@Suite("ios: runtime budgets")
struct RuntimeBudgetTests {
    /// A refresh task launched with a long safety timer, time advanced past every budget.
    static func refreshExpiry(seed: UInt64, policy: String? = nil) throws -> JSONValue {
        let lines = try Plugin.lines(
            iosFlags(seed: seed),
            (policy.map { [setPolicy(1, $0)] } ?? []) + [
                req(2, "startKeepalive", #"{"iosSafetyTimeoutSecs":100}"#), launch(3, refreshID), advance(4, "40"),
            ])
        let expired = Replies.events("os/taskExpired", in: lines)
        try #require(expired.count == 1, "one expiration in \(lines)")
        #expect(expired[0]["cause"]?.stringValue == "budget")
        return try #require(expired[0]["at"])
    }

    /// The budget is drawn per launch: 30 s, or with chance 0.2 an early one from 2 to
    /// 5 s (to the millisecond). Across seeds both kinds occur, nothing outside them.
    @Test func refreshBudgetWithinTheDocumentedRange() throws {
        var early = 0
        var usual = 0
        for seed in UInt64(0)..<30 {
            let at = try #require(try Self.refreshExpiry(seed: seed).doubleValue)
            if at == 30 {
                usual += 1
            } else {
                #expect((2...5).contains(at), "seed \(seed): expired at \(at)")
                #expect((at * 1000).rounded() == at * 1000, "whole milliseconds: \(at)")
                early += 1
            }
        }
        #expect(early >= 1 && usual >= 1, "early \(early), usual \(usual)")
        #expect(usual > early)
    }

    /// The early chance and range and the usual budget are the policy's.
    @Test(arguments: [
        (#"{"refreshEarlyExpiryChance":1}"#, 2.0, 5.0), (#"{"refreshEarlyExpiryChance":0}"#, 30.0, 30.0),
        (#"{"refreshEarlyExpiryChance":0,"refreshBudgetSecs":12.5}"#, 12.5, 12.5),
        (#"{"refreshEarlyExpiryChance":1,"refreshEarlyExpiryMinSecs":3,"refreshEarlyExpiryMaxSecs":3}"#, 3.0, 3.0),
    ])
    func refreshBudgetFollowsThePolicy(policy: String, low: Double, high: Double) throws {
        for seed in UInt64(0)..<5 {
            let at = try #require(try Self.refreshExpiry(seed: seed, policy: policy).doubleValue)
            #expect((low...high).contains(at), "seed \(seed): \(at)")
        }
    }

    /// The budget's expiration is `os/expire`'s: the same outputs in the same order, with
    /// `cause: "budget"` (the seed's expiration handler resolves the wait, completes
    /// with false, reschedules, cleans up).
    @Test func budgetExpiryRunsTheExpirationHandler() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive", #"{"iosSafetyTimeoutSecs":100}"#),
                req(3, "waitForCancel"), launch(4, refreshID), advance(5, "29.999999999"), advance(6, "0.000000001"),
                state(7),
            ])
        #expect(
            Array(lines.prefix(lines.count - 1)) == [ok(1, calmPolicyJSON)] + evScheduled("900") + [
                ok(2), evLaunched(refreshID, at: "0"), evTimer("started", "100"), launched(4, refreshID, at: "0"),
                now(5, "29.999999999"),
                evExpired(refreshID, at: "30", cause: "budget"), ok(3), evCompleted(refreshID, false, at: "30"),
            ] + evScheduled("930") + [evTimer("invalidated", "100"), now(6, "30")])
        let s = try Replies.state(7, in: lines)
        #expect(s.counters.expired == 1 && s.counters.completed == 1 && s.counters.violations == 0)
        #expect(s.ios?.runningTask == nil)
        #expect(s.ios?.nextEventAt == VirtualTime(seconds: 930), "the next event: the refresh request's launch")
    }

    /// `os/expire` under `--os ios` carries `cause: "simulated"` and is the same path.
    @Test func osExpireIsSimulated() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), launch(3, refreshID), expire(4, refreshID),
                state(5),
            ])
        #expect(
            lines[7...10] == [
                evExpired(refreshID, at: "0", cause: "simulated"), evCompleted(refreshID, false, at: "0"),
                evSubmitted(refreshID, "900"), evSubmitted(processingID, "900"),
            ])
        #expect(try Replies.state(5, in: lines).counters.expired == 1)
    }

    /// A processing request launched at 60 s (needing power and/or network); at 70 s
    /// `change` expires it now, before the reply, with `cause`, or leaves it running
    /// (`cause` nil: a condition it does not need, or one that did not change).
    @Test(arguments: [
        (true, false, #"{"externalPower":false}"#, "externalPowerLost" as String?),
        (false, true, #"{"networkConnected":false}"#, "networkLost"),
        (false, false, #"{"deviceInUse":true}"#, "deviceInUse"),
        (true, true, #"{"deviceInUse":true,"externalPower":false}"#, "deviceInUse"),
        (false, false, #"{"externalPower":false}"#, nil),
        (true, false, #"{"networkConnected":false,"batteryLevel":0.1,"lowPowerMode":true}"#, nil),
        (true, false, #"{"externalPower":true}"#, nil),
    ])
    func processingExpiresWhenItsConditionIsLost(power: Bool, network: Bool, change: String, cause: String?) throws {
        let needs = #""iosRequiresExternalPower":\#(power),"iosRequiresNetworkConnectivity":\#(network)"#
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), conditions(2, #"{"externalPower":true}"#),
                req(
                    3, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":100,"iosEarliestProcessingBeginMinutes":1,\#(needs)}"#),
                req(4, "waitForCancel"), advance(5, "60"), advance(6, "10"), conditions(7, change), state(8),
            ])
        #expect(lines.contains(evLaunched(processingID, at: "60")))
        let reply = try #require(Replies.index(of: #"{"id":7,"#, in: lines))
        let s = try Replies.state(8, in: lines)
        if let cause {
            #expect(
                Array(lines[(reply - 5)..<reply]) == [
                    evExpired(processingID, at: "70", cause: cause), ok(4), evCompleted(processingID, false, at: "70"),
                    evSubmitted(refreshID, "6070"), evSubmitted(processingID, "130", power: power, network: network),
                ])
            #expect(s.activeTask == nil && s.counters.expired == 1)
        } else {
            #expect(lines[reply - 1] == now(6, "70"))
            #expect(Replies.events("os/taskExpired", in: lines).isEmpty)
            #expect(s.activeTask?.identifier == processingID && s.cancelInvokePending == true)
        }
    }

    /// A processing task's budget (default 10 minutes) is configurable; no safety timer
    /// here. (Its next launch waits for the 600 s rate limit, after 700 s.)
    @Test(arguments: [(nil as String?, "660"), ("120", "180")])
    func processingBudget(budget: String?, expiresAt: String) throws {
        let policy =
            budget.map { #"{"processingBudgetSecs":\#($0),"processingDelayMaxSecs":0}"# }
            ?? #"{"processingDelayMaxSecs":0}"#
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, policy),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":100,"iosEarliestProcessingBeginMinutes":1}"#),
                advance(3, "700"),
            ])
        let expired = Replies.events("os/taskExpired", in: lines)
        #expect(expired.map { $0["at"]?.description } == [expiresAt])
        #expect(expired.first?["cause"]?.stringValue == "budget")
        #expect(expired.first?["identifier"]?.stringValue == processingID)
    }
}
