import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `--os ios`, rule ios.watchdog. The seed's expiration handler completes its task at
/// once, so the seed plugin never meets the watchdog; these tests give the app a
/// third task whose handler misbehaves (registered in-process before launch ends)
/// and drive the engine over the wire as the binary would be.
@Suite("ios: the watchdog")
struct WatchdogTests {
    static let stuckID = "com.example.app.bg-stuck"

    /// An `--os ios` engine whose app also registered `stuckID`: its expiration handler
    /// completes the task `completeAfter` seconds later (never when nil).
    static func engine(completeAfter: Double?, plist: TemporaryFile) throws -> PluginEngine {
        var options = PluginOptions()
        options.osMode = .ios
        options.events = true
        options.infoPlistPath = plist.path
        let engine = try PluginEngine(options: options)
        let os = engine.world.os
        os.scheduler.launchFinished = false
        try os.scheduler.register(forTaskWithIdentifier: stuckID, kind: .processing) { task in
            task.expirationHandler = {
                guard let completeAfter else { return }
                os.runLoop.scheduledTimer(withTimeInterval: completeAfter, repeats: false) { _ in
                    task.setTaskCompleted(success: false)
                }
            }
        }
        os.scheduler.launchFinished = true
        return engine
    }

    static func run(_ engine: PluginEngine, _ script: [String]) -> [String] {
        engine.receive(Array(script.map { $0 + "\n" }.joined().utf8))
        return String(decoding: engine.takeOutput(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func plist() throws -> TemporaryFile {
        try TemporaryFile(
            InfoPlistText.make(identifiers: [refreshID, processingID, stuckID], modes: ["fetch", "processing"]))
    }

    /// A task still not completed 5 s after its expiration handler ran gets the app
    /// killed: the violation, then `os/appTerminated {reason: "watchdog"}`, then the
    /// pending `waitForCancel` answered `terminated`; later invokes find no app.
    @Test func killsTheAppAfterTheGracePeriod() throws {
        let plist = try Self.plist()
        let engine = try Self.engine(completeAfter: nil, plist: plist)
        let stuck = requestJSON(Self.stuckID, "null", kind: "processing")
        let lines = Self.run(
            engine,
            [
                req(1, "waitForCancel"), req(2, "os/submit", #"{"identifier":"\#(Self.stuckID)","kind":"processing"}"#),
                launch(3, Self.stuckID), expire(4, Self.stuckID), advance(5, "4.999999999"), advance(6, "0.000000001"),
                state(7), req(8, "completeBgTask"),
            ])
        let detail =
            "\(Self.stuckID) was not completed within 5 s after its expiration handler ran at 0; "
            + "the system killed the app (call setTaskCompleted promptly on expiration)"
        #expect(
            Array(lines.prefix(10)) == [
                event("os/requestSubmitted", stuck), ok(2, stuck),
                event("os/taskLaunched", #"{"at":0,"identifier":"\#(Self.stuckID)","kind":"processing"}"#),
                ok(3, #"{"at":0,"identifier":"\#(Self.stuckID)","kind":"processing"}"#),
                evExpired(Self.stuckID, at: "0", cause: "simulated"), ok(4), now(5, "4.999999999"),
                evViolation("ios.watchdog", detail), evAppTerminated("watchdog", at: "5", identifier: Self.stuckID),
                rejected(1, "terminated"),
            ])
        #expect(lines[10] == now(6, "5"))
        let s = try Replies.state(7, in: lines)
        #expect(s.counters.watchdogKills == 1 && s.counters.violations == 1 && s.counters.completed == 0)
        #expect(s.ios?.app.phase == .notRunning)
        #expect(s.ios?.app.lastTermination == .init(reason: .watchdog, at: VirtualTime(seconds: 5)!))
        #expect(s.activeTask == nil && s.ios?.runningTask == nil && s.registered.isEmpty)
        #expect(
            lines[12]
                == failure(
                    8, -32000, "invoke rejected: terminated (the app is not running; os/openApp starts it)",
                    data: #"{"reason":"terminated"}"#))
    }

    /// Completion at exactly the end of the grace period is in time (timers fire before
    /// the watchdog at equal times); one nanosecond later is not.
    @Test(arguments: [("5", false), ("5.000000001", true), ("1", false)])
    func graceBoundary(completeAfter: String, killed: Bool) throws {
        let plist = try Self.plist()
        let engine = try Self.engine(completeAfter: Double(completeAfter)!, plist: plist)
        let lines = Self.run(
            engine,
            [
                req(1, "os/submit", #"{"identifier":"\#(Self.stuckID)","kind":"processing"}"#), launch(2, Self.stuckID),
                expire(3, Self.stuckID), advance(4, "10"), state(5),
            ])
        let s = try Replies.state(5, in: lines)
        #expect((s.counters.watchdogKills == 1) == killed)
        #expect(Replies.events("os/appTerminated", in: lines).count == (killed ? 1 : 0))
        #expect(s.counters.completed == (killed ? 0 : 1))
        #expect(s.ios?.app.phase == (killed ? .notRunning : .running))
    }

    /// The grace period is the policy's; the seed's own tasks never meet the watchdog
    /// (its handler completes at once) whatever the expiration's cause.
    @Test func graceIsConfigurableAndTheSeedIsSafe() throws {
        let plist = try Self.plist()
        let engine = try Self.engine(completeAfter: nil, plist: plist)
        let lines = Self.run(
            engine,
            [
                setPolicy(1, #"{"watchdogGraceSecs":0.5}"#),
                req(2, "os/submit", #"{"identifier":"\#(Self.stuckID)","kind":"processing"}"#), launch(3, Self.stuckID),
                expire(4, Self.stuckID), advance(5, "0.4"), state(6), advance(7, "0.1"), state(8),
            ])
        let armed = try Replies.state(6, in: lines).ios
        #expect(armed?.runningTask?.watchdogDeadline == VirtualTime(seconds: 0.5))
        #expect(armed?.nextEventAt == VirtualTime(seconds: 0.5))
        #expect(try Replies.state(8, in: lines).counters.watchdogKills == 1)
        let seed = try Plugin.lines(
            iosFlags(),
            [
                req(1, "startKeepalive"), launch(2, refreshID), expire(3, refreshID), advance(4, "100"), state(5),
            ])
        #expect(try Replies.state(5, in: seed).counters.watchdogKills == 0)
    }
}
