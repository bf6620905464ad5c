import HostProtocol
import HostTestSupport
import Testing

/// `--os simulator`, rule simulator.unavailable: the iOS Simulator's `BGTaskScheduler`, where
/// every `submit` fails with `unavailable` and only the debugger's commands (`os/launch`,
/// `os/expire`) launch or expire a task: "it never runs in the Simulator", reproduced.
@Suite("simulator: only the debugger launches")
struct SimulatorModeTests {
    static let flags = ["--os", "simulator", "--events"]

    /// `initialize` says so; `startKeepalive`'s two submissions fail `unavailable`; nothing is
    /// pending and a day passes with no launch; `os/submit` is `-32001` `unavailable`.
    @Test func submitIsUnavailableAndNothingRuns() throws {
        let lines = try Plugin.lines(
            ["--os", "simulator"],
            [
                initialize(1, events: true), req(2, "startKeepalive"), req(3, "os/pendingTaskRequests"),
                advance(4, "86400"),
                req(5, "os/submit", #"{"identifier":"\#(refreshID)","kind":"refresh"}"#), state(6),
            ])
        #expect(lines[0].contains(#""os":"simulator""#) && !lines[0].contains("osSeed"))
        #expect(
            Array(lines[1...3]) == [
                event("os/submitFailed", #"{"error":"unavailable","identifier":"\#(refreshID)"}"#),
                event("os/submitFailed", #"{"error":"unavailable","identifier":"\#(processingID)"}"#), ok(2),
            ])
        #expect(lines[4] == ok(3, "[]") && lines[5] == now(4, "86400"))
        #expect(lines[6] == event("os/submitFailed", #"{"error":"unavailable","identifier":"\#(refreshID)"}"#))
        #expect(Replies.find(5, in: lines)?["error"]?["data"]?["scheduler"] == "unavailable")
        let s = try Replies.state(6, in: lines)
        #expect(s.counters.launched == 0 && s.pendingRequests.isEmpty && s.ios == nil)
    }

    /// The debugger's simulate-launch launches a registered identifier with no pending request,
    /// as a task of its registered kind; simulate-expiration expires it; an unregistered one is `-32602`.
    @Test func onlyTheDebuggerLaunchesAndExpires() throws {
        let lines = try Plugin.lines(
            Self.flags,
            [
                req(1, "startKeepalive"), launch(2, processingID),
                req(3, "os/expire", #"{"identifier":"\#(processingID)"}"#),
                launch(4, "com.example.app.nope"), advance(5, "3600"), state(6),
            ])
        #expect(lines.contains(evLaunched(processingID, at: "0")))
        #expect(lines.contains(launched(2, processingID, at: "0")))
        #expect(lines.contains(event("os/taskExpired", #"{"at":0,"identifier":"\#(processingID)"}"#)))
        #expect(lines.contains(ok(3)))
        #expect(lines.contains { $0.hasPrefix(#"{"error":{"code":-32602"#) && $0.contains(#""id":4"#) })
        let s = try Replies.state(6, in: lines)
        #expect(s.counters.launched == 1 && s.counters.expired == 1 && s.counters.completed == 1)
        // The seed resubmitted after the task: unavailable again, nothing pending.
        #expect(s.pendingRequests.isEmpty)
        #expect(Replies.events("os/submitFailed", in: lines).count == 4)
    }

    /// The `--os ios` controls do not exist here (`-32601`), and `--help` documents the mode.
    @Test func iosControlsAreAbsentAndHelpSaysSo() throws {
        let lines = try Plugin.lines(Self.flags, [req(1, "os/explain", #"{"identifier":"\#(refreshID)"}"#)])
        #expect(lines[0].contains(#""code":-32601"#))
        let help = String(decoding: try Plugin.run(["--help"], []).stdout, as: UTF8.self)
        #expect(help.contains("--os manual|ios|simulator"))
        #expect(help.contains("simulator: the iOS Simulator's: every submit fails"))
    }
}
