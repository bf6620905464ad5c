import Foundation
import HostTestSupport
import Testing

/// `plugin-host fuzz` against plugins that misbehave on purpose (`hostile-plugin`): a
/// plugin that cannot start is exit 2 with its stderr shown and no trace; one that
/// hangs, ends, floods, writes junk or writes outside a step is exit 3 with what it
/// did; never "no findings", never a finding; `--time` bounds the run; nothing is left
/// running. Each run takes a second or two (a hung plugin: `--time 1` plus the 3 s grace).
@Suite(
    "fuzz against hostile plugins",
    .timeLimit(SanitizerBuild.active ? TimeLimitTrait.Duration.minutes(30) : .minutes(3)))
struct FuzzHostilePluginTests {
    /// Runs `fuzz` with `hostile-plugin` in `mode`; checks that no process it started is left.
    static func fuzz(
        _ mode: String, _ arguments: [String], out: String? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let tag = TaggedProcesses()
        let marker = tag.value
        let dir = out ?? FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(marker)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try await runHost(
            ["fuzz", "--plugin", Binaries.hostilePlugin, "--out", dir] + arguments,
            env: tag.environment(["HOSTILE_MODE": mode]))
        #expect(tag.leftBehind().isEmpty, "\(mode): processes left: \(tag.leftBehind())")
        if r.status != 1 { #expect(!FileManager.default.fileExists(atPath: dir), "\(mode): a trace was written") }
        #expect(!r.stdout.contains("no findings"), "\(mode): \(r.stdout)")
        return r
    }

    @Test(arguments: ["plugin", "system"])
    func aPluginThatCannotStartIsExitTwoWithItsStderr(level: String) async throws {
        let r = try await Self.fuzz("start-fail", ["--level", level, "--time", "5"])
        #expect(r.status == 2, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("the plugin did not start: "), "\(r.stderr)")
        #expect(r.stderr.contains("[plugin] hostile-plugin: cannot start: no licence file at /etc/plugin.lic"))
        #expect(!r.stdout.contains("finding"), "\(r.stdout)")
    }

    /// `--time 1` against a plugin that never answers: stopped at the time limit plus
    /// the grace for a case in progress, reported as the plugin failing.
    @Test(arguments: ["plugin", "system"])
    func aHungPluginIsStoppedAtTheTimeLimit(level: String) async throws {
        let started = Date()
        let r = try await Self.fuzz("silent", ["--level", level, "--time", "1"])
        #expect(r.status == 3, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("the plugin failed, so the run could not be judged: "), "\(r.stderr)")
        #expect(r.stderr.contains("when the run's time (--time, plus 3 s for a case in progress) ran out"))
        #expect(Date().timeIntervalSince(started) < (SanitizerBuild.active ? 1800 : 60), "a hang-catching bound only")
    }

    /// What each misbehaviour is reported as, at the plugin level (exit 3).
    /// (`--timeout 1` where the plugin stops answering; the flood needs no timeout to end.)
    @Test(arguments: [
        ("garbage", "the plugin wrote what is not a frame: a line that is not JSON"),
        ("huge-line", "the plugin wrote what is not a frame: Invalid Request: frame exceeds the limit"),
        ("flood", "the plugin flooded the host: 200,001 frames"),
        ("answer-twice", "more often than it was sent"),
        ("unknown-ids", "which was never sent; the answer to the case's closing request never came"),
        ("exit-mid-frame", "the plugin exited with status 3 in the middle of the run, cutting a frame off"),
        ("answer-notifications", "the plugin wrote outside a step: before the answer to the case's plugin/reset"),
        ("fork-holds-stdout", "the plugin did not answer the case's closing request (os/pendingTaskRequests) within"),
    ])
    func aPluginThatBreaksTheTransportIsExitThree(mode: String, message: String) async throws {
        // unknown-ids is told apart from a hang only by the answers that came before the
        // timeout: under ThreadSanitizer the proxy and its plugin took over 2 s to answer
        // the case's first requests in one CI run, so the timeout there is 30 s.
        let timeout =
            mode == "unknown-ids"
            ? ["--timeout", SanitizerBuild.active ? "30" : "2"]
            : mode == "fork-holds-stdout" ? ["--timeout", "2"] : []
        // Each run ends at the first break, long before `--time`; under a sanitizer the
        // proxy writes its 200,001-frame flood at a few thousand frames a second (170,413 in
        // 24 s in one CI run), so the limit there is a bound on a hang only.
        let time = SanitizerBuild.active ? "300" : "20"
        let r = try await Self.fuzz(mode, ["--time", time] + timeout)
        #expect(r.status == 3, "\(mode): \(r.status) \(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains(message), "\(mode): \(r.stderr)")
        #expect(!r.stdout.contains("finding"), "\(mode): \(r.stdout)")
    }

    /// The same at the system level, where the connection reports them (a plugin that
    /// ends mid-frame is seen ending, or its cut frame, whichever the host meets first; on
    /// a starved machine the call waiting behind a flood can time out before the bound).
    @Test(arguments: [
        ("garbage", ["unreadable output: Parse error"]),
        ("flood", ["flooded", "got no answer within 10.0 s", "did not answer"]),
        ("answer-twice", ["which no call is waiting for"]),
        ("exit-mid-frame", ["the plugin's output ended in the middle of a frame", "the plugin exited with status 3"]),
    ])
    func systemLevelReportsTheSame(mode: String, messages: [String]) async throws {
        // The flood stops answering: no race with it. Under ThreadSanitizer a started plugin took
        // over 2 s to write its first (garbage) line, and `initialize` timed out first: 30 s there.
        let timeout = mode == "flood" ? [] : ["--timeout", SanitizerBuild.active ? "30" : "2"]
        let r = try await Self.fuzz(
            mode, ["--level", "system", "--time", SanitizerBuild.active ? "300" : "20"] + timeout)
        #expect(r.status == 3, "\(mode): \(r.status) \(r.stdout) \(r.stderr)")
        #expect(messages.contains { r.stderr.contains($0) }, "\(mode): \(r.stderr)")
    }

    /// A plugin that serves normally while flooding stderr: its stderr is not held, the
    /// run ends with no finding.
    @Test func aStderrFloodIsNotAFailure() async throws {
        let tag = TaggedProcesses()
        let marker = tag.value
        let r = try await runHost(
            ["fuzz", "--plugin", Binaries.hostilePlugin, "--runs", "20", "--out", "/tmp/never-\(marker)"],
            env: tag.environment(["HOSTILE_MODE": "stderr-flood"]))
        #expect(r.status == 0, "\(r.status) \(r.stderr)")
        #expect(r.stdout.contains("no findings"))
        #expect(tag.leftBehind().isEmpty)
    }

    /// `--out` is checked before the run: a regular file, or a path under one, is a usage
    /// error, not a plugin that cannot start (exit 2: the check would have come after it).
    @Test func theOutputDirectoryIsCheckedFirst() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-out-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        for out in [file, file + "/traces"] {
            let r = try await runHost(
                ["fuzz", "--plugin", Binaries.hostilePlugin, "--out", out], env: ["HOSTILE_MODE": "start-fail"])
            #expect(r.status == 64, "\(out): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("--out: "), "\(r.stderr)")
            #expect(!r.stderr.contains("licence"), "the plugin was started: \(r.stderr)")
        }
    }
}
