import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--os ios`, rules ios.clock, ios.determinism: every autonomous event at its own
/// time, a whole day in one call, a bounded advance that stops cleanly, the real clock.
@Suite("ios: clocks and determinism")
struct IOSClockTests {
    /// A realistic day: the seed's defaults (15-minute requests, the 28 s safety
    /// timer), a processing request that needs power, the device on power overnight.
    static let day = [
        conditions(1, #"{"externalPower":true}"#), req(2, "startKeepalive", #"{"iosRequiresExternalPower":true}"#),
        req(3, "waitForCancel"), advance(4, "86400"), state(5),
    ]

    /// One `os/advanceTime 86400` runs the whole day: launches spread over it (energy
    /// budget and rate limit), refresh tasks ended by the safety timer or an early
    /// budget, processing tasks by their 10-minute budget, nothing killed, one task at a
    /// time (with two at once the seed gets killed: ConcurrentTasksTests).
    @Test func wholeDayInOneCall() throws {
        let lines = try Plugin.lines(iosFlags(legacy: true), [setPolicy(0, #"{"maxConcurrentTasks":1}"#)] + Self.day)
        #expect(lines.contains(now(4, "86400")))
        let s = try Replies.state(5, in: lines)
        let launched = Replies.events("os/taskLaunched", in: lines)
        #expect(launched.count == s.counters.launched)
        #expect((15...30).contains(launched.count), "\(launched.count) launches")
        #expect(launched.contains { $0["kind"]?.stringValue == "processing" })
        #expect(launched.contains { ($0["at"]?.doubleValue ?? 0) > 72000 }, "launches until the end of the day")
        let causes = Replies.events("os/taskExpired", in: lines).compactMap { $0["cause"]?.stringValue }
        #expect(causes.contains("budget"))
        #expect(lines.contains { $0.contains(#""state":"fired""#) })
        #expect(s.counters.violations == 0 && s.counters.watchdogKills == 0 && s.ios?.app.launches == 1)
        #expect(s.counters.completed == s.counters.launched - (s.activeTask == nil ? 0 : 1))
        let times = lines.compactMap(Replies.json).compactMap { $0["params"]?["at"]?.doubleValue }
        #expect(times == times.sorted(), "every event at its own time, in order")
    }

    /// Same seed and input, same bytes; another seed, other launch times.
    @Test func determinism() throws {
        let a = try Plugin.run(iosFlags(seed: 7), Self.day)
        let b = try Plugin.run(iosFlags(seed: 7), Self.day)
        let c = try Plugin.lines(iosFlags(seed: 8), Self.day)
        #expect(a.stdout == b.stdout && !a.stdout.isEmpty)
        let times = { (lines: [String]) in
            Replies.events("os/taskLaunched", in: lines).compactMap { $0["at"]?.description }
        }
        #expect(times(a.lines) != times(c))
        let script = Self.mixedScript(count: 400)
        let x = try Plugin.run(iosFlags(seed: 3), script)
        let y = try Plugin.run(iosFlags(seed: 3), script)
        #expect(x.stdout == y.stdout && x.status == 0)
        #expect(x.lines.contains { $0.contains("os/appTerminated") })
        #expect(x.lines.contains { $0.contains("os/appLaunched") })
    }

    /// `DeterminismTests`' generated messages with the `--os ios` controls mixed in.
    static func mixedScript(count: Int) -> [String] {
        let ios = [
            terminate(0, "system"), terminate(0, "forceQuit"), openApp(0), explain(0, refreshID),
            explain(0, processingID),
            conditions(0, #"{"deviceInUse":true}"#), conditions(0, #"{"deviceInUse":false,"batteryLevel":0.1}"#),
            conditions(0, #"{"lowPowerMode":false,"batteryLevel":0.9}"#),
            setPolicy(0, #"{"refreshEarlyExpiryChance":0.9}"#),
            setPolicy(0, #"{"pluginLoadsLate":true}"#), setPolicy(0, #"{"pluginLoadsLate":false}"#), advance(0, "5000"),
        ]
        return DeterminismTests.script(seed: 11, count: count).enumerated().map { i, line in
            guard i % 4 == 3 else { return line }
            return ios[(i / 4) % ios.count].replacingOccurrences(of: #""id":0,"#, with: #""id":"ios-\#(i)","#)
        }
    }

    /// `plugin/reset` starts the policy's generator again from its seed.
    @Test func resetRestartsTheGenerator() throws {
        let lines = try Plugin.lines(
            iosFlags(seed: 5),
            [
                req(1, "startKeepalive"), explain(2, refreshID), advance(3, "5000"), req(4, "plugin/reset"),
                req(5, "startKeepalive"), explain(6, refreshID),
            ])
        let first = try Replies.explanation(2, in: lines)
        let second = try Replies.explanation(6, in: lines)
        #expect(first.plannedAt != nil && first.plannedAt == second.plannedAt)
    }

    /// A bound remains (100,000 events per call); hitting it stops after finishing the
    /// instant it reached: -32002 with `data.now`, the state is the state at that time
    /// (an `os/advanceTime 0` then does nothing), and the next call goes on. The message
    /// names the events the call really performed (the bound's, and the instant's after it).
    @Test func boundedAdvanceStopsAtAnInstant() throws {
        // In process, with the bound lowered from 100,000 to 1,000 (the same rule, 1% of the output).
        var options = try Dispatching.options(.serial, os: .ios)
        options.iosAdvanceEventBound = 1000
        options.iosDefaults = .legacy  // (no usage spacing: launches back to back)
        let lines = try Dispatching.lines(
            [
                setPolicy(
                    1,
                    #"{"minLaunchSpacingSecs":0,"energyBudgetLaunches":100000,"refreshDelayMaxSecs":0,"#
                        + #""processingDelayMaxSecs":0}"#),
                req(
                    2, "startKeepalive",
                    #"{"iosSafetyTimeoutSecs":0,"iosEarliestRefreshBeginMinutes":0,"#
                        + #""iosEarliestProcessingBeginMinutes":0,"iosProcessingSafetyTimeoutSecs":0}"#),
                advance(3, "86400"), state(4), advance(5, "0"), state(6), advance(7, "1"), state(8),
            ], options)
        let error = try #require(Replies.find(3, in: lines)?["error"])
        #expect(error["code"]?.int64Value == -32002)
        let stop = try #require(error["data"]?["now"]?.description)
        let performed = try #require(Self.eventsPerformed(by: 3, after: 2, in: lines))
        #expect((1000..<2000).contains(performed))
        #expect(
            error["message"]?.stringValue == "Invalid state: os/advanceTime stopped at \(stop) s after \(performed) "
                + "autonomous events (timer firings, expirations, kills, launches); advance again to go on")
        let at = try Replies.state(4, in: lines)
        #expect(at.now.decimalSeconds == stop && at.now < VirtualTime(seconds: 86400)!)
        #expect(lines.contains(now(5, stop)))
        #expect(try Replies.state(6, in: lines) == at)
        #expect(try Replies.state(8, in: lines).counters.launched > at.counters.launched)
    }

    /// When one instant alone holds more than the bound's events again (zero budgets, spacing
    /// and delays, a large energy budget: a task launched and expired over and over at 86400 s),
    /// the call stops at the hard bound, twice the bound (200,000 events; 2,000 here, the bound
    /// lowered in process), in the middle of that instant, and says
    /// so; the clock is at `data.now`, and the next call (even of 0 s) runs what is still due then.
    @Test func hardBoundStopsWithinAnInstantAndSaysSo() throws {
        // In process, with the bound lowered from 100,000 to 1,000 (else 700,000 lines, 100 MB).
        #expect(PluginOptions().iosAdvanceEventBound == 100_000, "the bound docs/protocol.md gives")
        var options = try Dispatching.options(.serial, os: .ios)
        options.iosAdvanceEventBound = 1000
        options.iosDefaults = .legacy  // (no usage spacing: launches back to back)
        let lines = try Dispatching.lines(
            [
                setPolicy(
                    1,
                    #"{"refreshEarlyExpiryChance":1,"refreshEarlyExpiryMinSecs":0,"refreshEarlyExpiryMaxSecs":0,"#
                        + #""refreshDelayMaxSecs":0,"minLaunchSpacingSecs":0,"energyBudgetLaunches":1000}"#),
                conditions(2, #"{"autoLaunch":false}"#), advance(3, "86400"),
                req(
                    4, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":0,"iosEarliestProcessingBeginMinutes":1000}"#),
                conditions(5, #"{"autoLaunch":true}"#), advance(6, "1"), state(7), advance(8, "0"), state(9),
            ], options)
        let error = try #require(Replies.find(6, in: lines)?["error"])
        #expect(error["data"] == ["now": 86400])
        #expect(try #require(Self.eventsPerformed(by: 6, after: 5, in: lines)) == 2000)
        #expect(
            error["message"]?.stringValue == "Invalid state: os/advanceTime stopped at 86400 s after 2000 "
                + "autonomous events (timer firings, expirations, kills, launches), within that instant (the hard "
                + "bound is 2000 events); advance again to run the events still due at 86400 s and go on")
        let stopped = try Replies.state(7, in: lines)
        #expect(stopped.now == VirtualTime(seconds: 86400) && stopped.counters.launched == 1000)
        #expect(stopped.ios?.nextEventAt == VirtualTime(seconds: 86400), "something is still due at 86400 s")
        #expect(lines.contains(now(8, "86400")))
        #expect(Self.eventsPerformed(by: 8, after: 7, in: lines) == 1, "the deferral report still due")
        #expect(try Replies.state(9, in: lines).ios?.nextEventAt != VirtualTime(seconds: 86400))
    }

    /// At the clock's limit nothing the policy plans ever comes, as no timer there fires
    /// (rules.md, "timers"): requests submitted there (their dates clamped to the limit) are not
    /// launched, over and over, within the one instant; `os/explain` says why (`clockLimit`) and
    /// that nothing but a change of the clock would help (it never moves again).
    @Test func atTheClockLimitNothingLaunches() throws {
        let limit = VirtualTime(nanoseconds: VirtualTime.limit).decimalSeconds
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                advance(1, "1e300"), req(2, "startKeepalive"), advance(3, "0"), explain(4, refreshID), state(5),
            ])
        #expect(lines.contains(now(1, limit)) && lines.contains(now(3, limit)))
        let s = try Replies.state(5, in: lines)
        #expect(s.counters.launched == 0 && s.ios?.nextEventAt == nil)
        let explanation = try Replies.explanation(4, in: lines)
        #expect(explanation.reasons.map(\.factor) == [.clockLimit] && explanation.nextPossibleAt == nil)
    }

    /// A policy deadline that reaches the limit never comes either: a task launched 10 s before
    /// it gets a 30 s budget (clamped to the limit) and a 28 s safety timer (beyond it); neither
    /// ends it, and an advance to the limit finishes with the task still running.
    @Test func aBudgetAtTheClockLimitNeverComes() throws {
        let limit = VirtualTime(nanoseconds: VirtualTime.limit)
        let early = limit.adding(nanoseconds: -10_000_000_000).decimalSeconds
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy), conditions(2, #"{"autoLaunch":false}"#), advance(3, early),
                req(4, "startKeepalive", #"{"iosEarliestRefreshBeginMinutes":0}"#), launch(5, refreshID),
                explain(6, processingID), advance(7, "1e300"), state(8), explain(9, processingID),
            ])
        #expect(lines.contains(now(7, limit.decimalSeconds)))
        let s = try Replies.state(8, in: lines)
        #expect(s.activeTask?.identifier == refreshID && s.counters.expired == 0 && s.counters.completed == 0)
        #expect(s.ios?.runningTask?.budgetDeadline == limit && s.ios?.nextEventAt == nil)
        // Before the limit: the processing request's date (900 s on, clamped) never comes.
        let before = try Replies.explanation(6, in: lines)
        #expect(before.reasons.contains { $0.factor == .earliestBeginDate && $0.until == nil })
        #expect(before.nextPossibleAt == nil)
        let after = try Replies.explanation(9, in: lines)
        #expect(after.reasons.last?.factor == .clockLimit && after.nextPossibleAt == nil)
    }

    /// The autonomous events written between the replies to `first` and `id`: launches, timer
    /// firings, expirations, deferral reports and watchdog kills (one line each).
    static func eventsPerformed(by id: Int, after first: Int, in lines: [String]) -> Int? {
        let reply = { (n: Int) in
            lines.firstIndex { !$0.hasPrefix(#"{"jsonrpc":"2.0","method""#) && $0.contains(#""id":\#(n),"#) }
        }
        guard let start = reply(first), let end = reply(id), start < end else { return nil }
        let kinds = [
            #""method":"os/taskLaunched""#, #""state":"fired""#, #""method":"os/taskExpired""#,
            #""method":"os/launchDeferred""#, #""reason":"watchdog""#,
        ]
        return lines[(start + 1)..<end].filter { line in kinds.contains { line.contains($0) } }.count
    }

    /// Under `--clock real --time-scale X` the policy's own events (a launch, then the
    /// task's end) happen on the scaled clock: a pending `waitForCancel` is resolved
    /// with no `os/` control sent. (The timeout only catches a hang.)
    @Test func realClockReachesPolicyEvents() throws {
        let plugin = try StreamingPlugin(["--clock", "real", "--time-scale", "100000", "--os", "ios", "--events"])
        plugin.write(Array((req(1, "startKeepalive") + "\n" + req(2, "waitForCancel") + "\n").utf8))
        let got = try #require(plugin.frames(through: "2", timeout: 60))
        let before = got.before.map { String(decoding: $0, as: UTF8.self) }
        #expect(before.contains { $0.contains(#""method":"os/taskLaunched""#) })
        #expect(before.contains { $0.contains(#""method":"os/taskExpired""#) || $0.contains(#""state":"fired""#) })
        #expect(String(decoding: got.reply, as: UTF8.self) == ok(2))
        plugin.closeStdin()
        #expect(plugin.waitForExit(timeout: 30) == 0)
    }
}
