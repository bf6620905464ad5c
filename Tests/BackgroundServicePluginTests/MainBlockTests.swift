import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// A main queue that can block (issue 22): `os/blockMain` under `--os ios --dispatch tauri`.
@Suite("a main queue that can block")
struct MainBlockTests {
    static let flags = iosFlags(legacy: true) + ["--dispatch", "tauri"]

    /// A refresh task launched at 0 (budget 30 s, safety timer at 100 s so the budget comes
    /// first), the clock at 25, main blocked for `seconds`.
    static func script(block seconds: String) -> [String] {
        [
            setPolicy(0, calmPolicy), req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":100}"#),
            req(2, "waitForCancel"), launch(3, refreshID), advance(4, "25"),
            req(5, "os/blockMain", #"{"seconds":\#(seconds)}"#),
        ]
    }

    /// The lines from the block's answer on.
    static func tail(_ lines: [String]) throws -> [String] {
        let start = try #require(lines.firstIndex { $0.contains(#""id":5,"#) })
        return Array(lines[start...])
    }

    /// Main blocked from 25 to 35: the budget runs out at 30, but the expiration handler runs
    /// on main, so it (and the OS's expiration) waits until 35; `os/expire` meanwhile is -32002.
    @Test func mainBlockedDelaysTheExpirationHandler() throws {
        let lines = try Plugin.lines(Self.flags, Self.script(block: "10") + [expire(6, refreshID), advance(7, "30")])
        #expect(
            try Self.tail(lines) == [
                ok(5, #"{"blockedSince":25,"blockedUntil":35}"#),
                failure(
                    6, -32002,
                    "Invalid state: cannot expire \(refreshID): the main thread is blocked until 35 s "
                        + "(os/blockMain 10 s); advance the clock past it"),
                evExpired(refreshID, at: "35", cause: "budget"), ok(2), evCompleted(refreshID, false, at: "35"),
            ] + evScheduled("935") + [evTimer("invalidated", "100"), now(7, "55")])
    }

    /// Main blocked from 25 for 30 s while the task runs: at 45 (the 20 s allowance) the
    /// watchdog kills the app; the held `waitForCancel` is answered `terminated`; the budget's
    /// expiration never ran.
    @Test func mainBlockedPastTheAllowanceIsAWatchdogKill() throws {
        let lines = try Plugin.lines(Self.flags, Self.script(block: "30") + [advance(6, "30"), state(7)])
        let message =
            "the main thread was blocked for 20 s (since 25 s: os/blockMain 30 s) while a background task ran; "
            + "the watchdog killed the app (0x8badf00d)"
        let tail = try Self.tail(lines)
        #expect(
            Array(tail.prefix(5)) == [
                ok(5, #"{"blockedSince":25,"blockedUntil":55}"#), evViolation("ios.main-watchdog", message),
                event(
                    "os/appTerminated",
                    #"{"at":45,"identifier":"\#(refreshID)","message":"\#(message)","reason":"watchdog"}"#),
                rejected(2, "terminated"), now(6, "55"),
            ])
        let state = try Replies.state(7, in: lines)
        #expect(state.counters.watchdogKills == 1)
        #expect(!lines.contains { $0.contains("os/taskExpired") })
    }

    /// A block within the allowance with no task running kills nothing, and a block needs
    /// `--dispatch tauri`, a running app and `seconds >= 0`.
    @Test func rulesOfTheControl() throws {
        let serial = try Plugin.lines(iosFlags(), [req(1, "os/blockMain", #"{"seconds":1}"#)])
        #expect(serial.last?.contains("-32002") == true && serial.last?.contains("--dispatch tauri") == true)
        let bad = try Plugin.lines(
            Self.flags,
            [
                req(1, "os/blockMain", #"{"seconds":-1}"#), req(2, "os/blockMain"),
                req(3, "os/blockMain", #"{"seconds":"x"}"#),
            ])
        #expect(bad.count == 3 && bad.allSatisfy { $0.contains("-32602") && $0.contains("seconds") })
        let manual = try Plugin.lines(["--dispatch", "tauri"], [req(1, "os/blockMain", #"{"seconds":1}"#)])
        #expect(manual.last?.contains("-32601") == true)
        let idle = try Plugin.lines(Self.flags, [req(1, "os/blockMain", #"{"seconds":60}"#), advance(2, "100")])
        #expect(idle == [ok(1, #"{"blockedSince":0,"blockedUntil":60}"#), now(2, "100")])
        let over = try Plugin.lines(
            Self.flags,
            [
                req(1, "os/blockMain", #"{"seconds":5}"#), req(2, "os/blockMain", #"{"seconds":5}"#),
                launch(3, refreshID),
            ])
        #expect(over[1] == ok(2, #"{"blockedSince":0,"blockedUntil":10}"#))
        #expect(over[2].contains("-32002") && over[2].contains("blocked until 10 s"))
    }
}
