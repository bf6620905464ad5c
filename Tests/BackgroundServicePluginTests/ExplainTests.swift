import HostProtocol
import HostTestSupport
import Testing

/// `--os ios`, rule ios.explain: "why has my task not run?", as `os/explain` answers
/// and `os/launchDeferred` reports it.
@Suite("ios: os/explain and os/launchDeferred")
struct ExplainTests {
    /// The exact answer: status, reasons (`factor`, `detail`, `until`), the next
    /// possible time, the request's dates.
    @Test func exactAnswer() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"refreshDelayMinSecs":60,"refreshDelayMaxSecs":60}"#), req(2, "startKeepalive"),
                conditions(3, #"{"lowPowerMode":true}"#), advance(4, "60"), explain(5, refreshID),
            ])
        let reasons = [
            #"{"detail":"Low Power Mode is on: background launches are paused","factor":"lowPowerMode"}"#,
            #"{"detail":"earliestBeginDate in 840 s","factor":"earliestBeginDate","until":900}"#,
            #"{"detail":"the system plans to launch it at 00:16 (t=960 s)","factor":"systemDelay","until":960}"#,
        ]
        #expect(
            lines.last
                == ok(
                    5,
                    #"{"earliestBeginDate":900,"identifier":"\#(refreshID)","nextPossibleAt":null,"#
                        + #""plannedAt":960,"reasons":[\#(reasons.joined(separator: ","))],"status":"pending"}"#))
    }

    static let registered = "registered: com.example.app.bg-processing, com.example.app.bg-refresh"

    /// A running task, an identifier with nothing pending, and a request that can go
    /// now (empty reasons: it launches as time next advances).
    @Test func runningNotPendingAndReady() throws {
        let lines = try Plugin.lines(
            iosFlags(legacy: true),
            [
                setPolicy(1, calmPolicy), req(2, "startKeepalive"), launch(3, refreshID), explain(4, refreshID),
                explain(5, "com.example.app.never"), conditions(6, #"{"autoLaunch":false}"#), advance(7, "2000"),
                req(8, "completeBgTask"),
                req(9, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh","earliestBeginDate":5}"#),
                conditions(10, #"{"autoLaunch":true}"#), explain(11, refreshID),
            ])
        let running = #"{"identifier":"\#(refreshID)","nextPossibleAt":null,"reasons":[],"status":"running"}"#
        #expect(Replies.find(4, in: lines)?.description == ok(4, running))
        #expect(
            try Replies.explanation(5, in: lines)
                == LaunchExplanation(
                    identifier: "com.example.app.never", status: .notPending,
                    reasons: [
                        LaunchReason(
                            factor: .notPending,
                            detail: "no request for com.example.app.never is pending; the app must submit one "
                                + "(com.example.app.never is not registered; \(Self.registered))")
                    ],
                    nextPossibleAt: nil))
        let ready = try Replies.explanation(11, in: lines)
        #expect(ready.reasons.isEmpty && ready.nextPossibleAt == VirtualTime(seconds: 2000))
        #expect(ready.plannedAt == VirtualTime(seconds: 2000))
    }

    /// `os/explain` changes nothing (state before and after are equal, no event), and
    /// its params are checked like `os/launch`'s.
    @Test func explainIsReadOnly() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                req(1, "startKeepalive"), state(2), explain(3, refreshID), explain(4, processingID), state(5),
                req(6, "os/explain"), req(7, "os/explain", #"{"identifier":3}"#),
            ])
        #expect(resultPart(lines[3]) == resultPart(lines[6]))
        #expect(lines.filter { $0.contains(#""method""#) }.count == 2)
        #expect(
            Array(lines.suffix(2)) == [
                failure(6, -32602, #"Invalid params: \"identifier\" must be a string, got nothing"#),
                failure(7, -32602, #"Invalid params: \"identifier\" must be a string, got number"#),
            ])
    }

    /// `os/launchDeferred` is sent once, at the planned time, when the request cannot
    /// launch then, with `os/explain`'s reasons; it then launches when they clear.
    @Test func deferredOnceAtThePlannedTime() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, calmPolicy),
                req(2, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh","earliestBeginDate":100}"#),
                conditions(3, #"{"batteryLevel":0.05}"#), advance(4, "99.999999999"), advance(5, "1000"),
                conditions(6, #"{"batteryLevel":0.9}"#), advance(7, "1"),
            ])
        let reason = #"{"detail":"battery at 5 % (below 20 %): no discretionary launches","factor":"lowBattery"}"#
        let deferred = event(
            "os/launchDeferred",
            #"{"at":100,"identifier":"\#(refreshID)","nextPossibleAt":null,"reasons":[\#(reason)]}"#)
        #expect(lines.filter { $0.contains("os/launchDeferred") } == [deferred])
        #expect(lines.firstIndex(of: deferred) == lines.firstIndex(of: now(4, "99.999999999")).map { $0 + 1 })
        #expect(lines.suffix(3).first == evLaunched(refreshID, at: "1099.999999999"))
    }
}
