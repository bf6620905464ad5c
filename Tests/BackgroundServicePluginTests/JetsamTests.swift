import HostProtocol
import HostTestSupport
import Testing

/// `--os ios` with `appStates`, rule ios.jetsam: the system ends a suspended app to reclaim
/// memory, with the seeded chance `jetsamChance` at a time drawn within `jetsamWithinSecs` of
/// the suspension; the next launch is a cold start, and `os/explain` says so beforehand.
@Suite("ios: jetsam")
struct JetsamTests {
    static func script(_ policy: String, advance seconds: String = "800") -> [String] {
        [
            setPolicy(
                1,
                #"{"appStates":true,"refreshDelayMaxSecs":0,"refreshEarlyExpiryChance":0,"maxConcurrentTasks":1,"#
                    + policy + "}"),
            req(2, "startKeepalive", #"{"iosEarliestProcessingBeginMinutes":600}"#), req(3, "waitForCancel"),
            advance(4, seconds), explain(5, refreshID), advance(6, "200"), state(7),
        ]
    }

    /// Seed 0 draws a jetsam at 401.648 s: the suspended app ends (`os/appTerminated {reason:
    /// "jetsam"}`, its held wait answered `terminated`), `os/explain` names the cold start, and
    /// the launch at 900 s starts a new process; the same input gives the same bytes.
    @Test func jetsamEndsTheAppAndTheNextLaunchColdStarts() throws {
        let script = Self.script(#""jetsamChance":0.5,"jetsamWithinSecs":600"#)
        let lines = try Plugin.lines(iosFlags(seed: 0), script)
        let ended = try #require(lines.firstIndex(of: evAppTerminated("jetsam", at: "401.648")))
        #expect(lines[ended - 1] == event("os/appStateChanged", #"{"at":5,"state":"suspended"}"#))
        #expect(lines[ended + 1] == rejected(3, "terminated"))
        let e = try Replies.explanation(5, in: lines)
        #expect(e.nextPossibleAt == VirtualTime(seconds: 900))
        #expect(
            e.reasons.last
                == LaunchReason(
                    factor: .coldStart,
                    detail: "the system terminated the suspended app at 00:06 (t=401.648 s) to reclaim memory "
                        + "(jetsam); the launch will cold-start it: a fresh process, the plugin's state at its defaults"
                ))
        #expect(lines.contains(evAppLaunched("backgroundTask", at: "900", identifier: refreshID)))
        let s = try Replies.state(7, in: lines)
        #expect(s.ios?.app.lastTermination == .init(reason: .jetsam, at: VirtualTime(seconds: 401.648)!))
        #expect(s.ios?.app.launches == 2 && s.ios?.appState == .suspended)
        #expect(try Plugin.lines(iosFlags(seed: 0), script) == lines)
    }

    /// Over seeds, chance 0.5: some suspensions end in jetsam and some do not, each within the
    /// window of the suspension at 5 s; chance 0 never, chance 1 with a window of 0 at the suspension itself.
    @Test func theChanceAndTheWindow() throws {
        var hits = 0
        for seed in UInt64(0)..<12 {
            let lines = try Plugin.lines(
                iosFlags(seed: seed), Self.script(#""jetsamChance":0.5,"jetsamWithinSecs":600"#, advance: "610"))
            let jetsams = Replies.events("os/appTerminated", in: lines)
            #expect(jetsams.count <= 1)
            for params in jetsams {
                #expect(params["reason"]?.stringValue == "jetsam")
                let at = try #require(params["at"]?.doubleValue)
                #expect(at >= 5 && at <= 605, "seed \(seed): jetsam at \(at)")
                hits += 1
            }
        }
        #expect(hits > 0 && hits < 12, "\(hits) of 12 seeds")
        let never = try Plugin.lines(iosFlags(), Self.script(#""jetsamChance":0"#, advance: "86400"))
        #expect(!never.contains { $0.contains(#""reason":"jetsam""#) })
        let atOnce = try Plugin.lines(iosFlags(), Self.script(#""jetsamChance":1,"jetsamWithinSecs":0"#))
        let suspended = try #require(
            atOnce.firstIndex(of: event("os/appStateChanged", #"{"at":5,"state":"suspended"}"#)))
        #expect(atOnce[suspended + 1] == evAppTerminated("jetsam", at: "5"))
    }

    /// Jetsam is the system's own: `os/terminate` cannot ask for it; the members' ranges.
    @Test func badInput() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                terminate(1, "jetsam"), setPolicy(2, #"{"jetsamChance":2}"#),
                setPolicy(3, #"{"jetsamWithinSecs":-1}"#),
            ])
        #expect(lines.allSatisfy { $0.contains(#""code":-32602"#) } && lines.count == 3)
        #expect(lines[1].contains("jetsamChance") && lines[2].contains("jetsamWithinSecs"))
    }
}
