import Foundation
import HostProtocol
import Testing

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
    /// budget, processing tasks by their 10-minute budget, nothing killed.
    @Test func wholeDayInOneCall() throws {
        let lines = try Plugin.lines(iosFlags(), Self.day)
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
        let lines = try Plugin.lines(iosFlags(seed: 5), [
            req(1, "startKeepalive"), explain(2, refreshID), advance(3, "5000"), req(4, "plugin/reset"),
            req(5, "startKeepalive"), explain(6, refreshID),
        ])
        let first = try Replies.explanation(2, in: lines), second = try Replies.explanation(6, in: lines)
        #expect(first.plannedAt != nil && first.plannedAt == second.plannedAt)
    }

    /// A bound remains (100,000 events per call); hitting it stops after finishing the
    /// instant it reached: -32002 with `data.now`, the state is the state at that time
    /// (an `os/advanceTime 0` then does nothing), and the next call goes on.
    @Test func boundedAdvanceStopsAtAnInstant() throws {
        let lines = try Plugin.lines(["--os", "ios"], [
            setPolicy(
                1, #"{"minLaunchSpacingSecs":0,"energyBudgetLaunches":100000,"refreshDelayMaxSecs":0,"#
                    + #""processingDelayMaxSecs":0}"#),
            req(
                2, "startKeepalive", #"{"iosSafetyTimeoutSecs":0,"iosEarliestRefreshBeginMinutes":0,"#
                    + #""iosEarliestProcessingBeginMinutes":0,"iosProcessingSafetyTimeoutSecs":0}"#),
            advance(3, "86400"), state(4), advance(5, "0"), state(6), advance(7, "1"), state(8),
        ])
        let error = try #require(Replies.find(3, in: lines)?["error"])
        #expect(error["code"]?.int64Value == -32002)
        let stop = try #require(error["data"]?["now"]?.description)
        #expect(error["message"]?.stringValue == "Invalid state: os/advanceTime stopped at \(stop) s after 100000 "
            + "autonomous events (timer firings, expirations, kills, launches); advance again to go on")
        let at = try Replies.state(4, in: lines)
        #expect(at.now.decimalSeconds == stop && at.now < VirtualTime(seconds: 86400)!)
        #expect(lines.contains(now(5, stop)))
        #expect(try Replies.state(6, in: lines) == at)
        #expect(try Replies.state(8, in: lines).counters.launched > at.counters.launched)
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
