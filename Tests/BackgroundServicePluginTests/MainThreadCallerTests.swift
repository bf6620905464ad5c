import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// A Rust caller blocked on the main thread (issue 22): `x-mainThreadCaller: true` in an
/// invoke's params under `--os ios --dispatch tauri`.
@Suite("a caller blocked on the main thread")
struct MainThreadCallerTests {
    /// A refresh task launched at 0 (safety timer at 100 s), at 5 `completeBgTask` from a
    /// synchronous command on the main thread, then the clock to 35.
    static let script = [
        setPolicy(0, calmPolicy), req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":100}"#), launch(3, refreshID),
        advance(4, "5"), req(5, "completeBgTask", #"{"success":true,"x-mainThreadCaller":true}"#), advance(6, "30"),
        state(7),
    ]

    static func tail(_ lines: [String]) throws -> [String] {
        let start = try #require(lines.firstIndex { $0 == now(4, "5") })
        return Array(lines[(start + 1)...])
    }

    /// `--profile strict` hops to `DispatchQueue.main` before answering: main is blocked by the
    /// caller that waits for that answer, so the hop never runs: the deadlock is reported at
    /// once, and at 25 (the 20 s allowance) the watchdog kills the app; the invoke is then
    /// answered `terminated`.
    @Test func strictHopDeadlocks() throws {
        let lines = try Plugin.lines(
            iosFlags() + ["--dispatch", "tauri", "--profile", "strict"], Self.script)
        let detail =
            "completeBgTask hops to DispatchQueue.main before answering while a caller on the main thread waits "
            + "for completeBgTask request 5 (since 5 s): neither can go on, as on a device"
        let message =
            "the main thread was blocked for 20 s (since 5 s: a caller on the main thread waits for completeBgTask "
            + "request 5) while a background task ran; the watchdog killed the app (0x8badf00d)"
        let tail = try Self.tail(lines)
        #expect(
            Array(tail.prefix(5)) == [
                evViolation("dispatch.main-deadlock", detail), evViolation("ios.main-watchdog", message),
                event(
                    "os/appTerminated",
                    #"{"at":25,"identifier":"\#(refreshID)","message":"\#(message)","reason":"watchdog"}"#),
                failure(
                    5, -32000, "invoke rejected: terminated (the app is not running; os/openApp starts it)",
                    data: #"{"reason":"terminated"}"#),
                now(6, "35"),
            ])
        let state = try Replies.state(7, in: lines)
        #expect(state.counters.watchdogKills == 1)
        #expect(!lines.contains { $0.contains("os/taskCompleted") })
    }

    /// `plugin/reset` while the hop is parked: a fresh plugin holds no invoke, so the parked
    /// one is answered `reset` (as a pending `waitForCancel` is) before the reset's own answer,
    /// and its id is free again: a later request with it is served, not refused as a
    /// duplicate.
    @Test func resetAnswersTheParkedHop() throws {
        let script = Array(Self.script.prefix(5)) + [req(6, "plugin/reset"), state(5), advance(8, "30")]
        let lines = try Plugin.lines(iosFlags() + ["--dispatch", "tauri", "--profile", "strict"], script)
        let tail = try Self.tail(lines)
        let rejected = try #require(tail.firstIndex { $0.hasPrefix(#"{"error""#) && $0.contains(#""id":5"#) })
        #expect(tail[rejected].contains(#""reason":"reset""#), "\(tail)")
        // Answered once: one answer to id 5 before the reset's own, and no second answer reported.
        #expect(tail.prefix { $0 != ok(6) }.filter { $0.contains(#""id":5,"#) }.count == 1, "\(tail)")
        #expect(!lines.contains { $0.contains("invoke.answered-once") }, "\(tail)")
        #expect(tail.firstIndex(of: ok(6)).map { rejected < $0 } == true, "\(tail)")
        // Id 5 again, after the reset: the state of a fresh plugin, not a refusal.
        #expect(tail.contains { $0.hasPrefix(#"{"id":5,"#) && $0.contains(#""watchdogKills":0"#) }, "\(tail)")
        #expect(!tail.contains { $0.contains("-32600") }, "\(tail)")
        #expect(!lines.contains { $0.contains("os/appTerminated") || $0.contains("terminated") }, "\(tail)")
    }

    /// The seed answers on `ipc` without the main queue: the caller goes free, nothing deadlocks.
    @Test func seedAnswersOnIPC() throws {
        let lines = try Plugin.lines(iosFlags() + ["--dispatch", "tauri"], Self.script)
        let tail = try Self.tail(lines)
        #expect(tail.first == evCompleted(refreshID, true, at: "5"))
        #expect(tail.contains(ok(5)) && tail.contains(now(6, "35")))
        #expect(!lines.contains { $0.contains("main-deadlock") || $0.contains("os/appTerminated") })
    }

    /// Under `--dispatch serial` the member means nothing: strict answers as always.
    @Test func serialIgnoresTheMember() throws {
        let lines = try Plugin.lines(iosFlags() + ["--profile", "strict"], Self.script)
        #expect(try Self.tail(lines).contains(ok(5)))
        #expect(!lines.contains { $0.contains("main-deadlock") || $0.contains("os/appTerminated") })
    }
}
