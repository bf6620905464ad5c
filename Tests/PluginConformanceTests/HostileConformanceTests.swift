import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// `plugin-host conformance` against `hostile-plugin` (`HOSTILE_MODE`) and small
/// wrapper scripts: each misbehaviour gets its exit status and a message that says
/// what happened, within seconds, the checks run on a few filtered checks.
@Suite("conformance against hostile plugins")
struct HostileConformanceTests {
    static func conformance(
        _ mode: String, _ arguments: [String] = ["--filter", "events.flag", "--profile", "seed"]
    ) async throws -> ConformanceHarness.CommandRun {
        try await ConformanceHarness.host(
            ["conformance", "--plugin", Binaries.hostilePlugin] + arguments, environment: ["HOSTILE_MODE": mode])
    }

    /// One message and its stderr, exit 2, not 254 failing checks.
    @Test func aPluginThatCannotStartIsReportedOnce() async throws {
        let r = try await Self.conformance("start-fail", [])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(
            r.stderr.contains(
                "the plugin exited with status 1 before answering its first request (conformance/barrier, "
                    + #"id "conformance-barrier-1"); no check was run"#))
        #expect(r.stderr.contains("hostile-plugin: cannot start: no licence file at /etc/plugin.lic"))
        #expect(r.stderr.split(separator: "\n").count < 6)
    }

    @Test func aSilentPluginIsStoppedAtTheTimeout() async throws {
        let r = try await Self.conformance("silent", ["--timeout", "0.5"])
        #expect(r.status == 3)
        #expect(r.stderr.contains("did not answer its first request (conformance/barrier"), "\(r.stderr)")
        #expect(r.stderr.contains("within 0.5 s (--timeout); it was stopped; no check was run"))
    }

    @Test func anAnswerWithAnUnknownIDStopsTheRunAtOnce() async throws {
        let r = try await Self.conformance("unknown-ids", [])
        #expect(r.status == 3)
        #expect(r.stderr.contains(#"with id "unknown-1", an id never sent"#), "\(r.stderr)")
    }

    @Test func aFloodFailsEachCheckAsFloodingWithTheFigures() async throws {
        let r = try await Self.conformance("flood", ["--filter", "events.flag"])
        #expect(r.status == 3, "\(r.stdout)")
        #expect(r.stdout.contains("the plugin flooded stdout: 2,001 frames"), "\(r.stdout)")
        #expect(r.stdout.contains("(limit 2,000 frames or 64 MiB) since the suite last wrote to it"))
        #expect(r.stdout.contains("the plugin broke the transport in 2 failing check(s): 2 flooding"))
        // Progress on stderr, though it is a pipe: the first line, each failure, the end.
        let progress = r.stderr.split(separator: "\n")
        #expect(progress.first?.hasPrefix("plugin-host conformance: running 2 check(s) against ") == true)
        #expect(progress.contains { $0.contains("[1/2] FAIL events.flag (") })
        #expect(progress.contains { $0.contains("[2/2] FAIL events.flag (") })

        let early = try await Self.conformance("flood-at-start", [])
        #expect(early.status == 3)
        #expect(early.stderr.contains("before answering its first request"), "\(early.stderr)")
        #expect(early.stderr.contains("the plugin flooded stdout: 2,001 frames"))
    }

    @Test func aHugeLineIsRefusedAtTheFrameLimit() async throws {
        let r = try await Self.conformance("huge-line")
        #expect(r.status == 3)
        #expect(r.stdout.contains("and no end yet on stdout, past the largest frame the suite accepts (16 MiB)"))
        #expect(r.stdout.contains("the plugin was stopped"), "\(r.stdout)")
    }

    @Test func aPluginThatEndsMidCheckBrokeTheTransport() async throws {
        let r = try await Self.conformance("exit-mid-frame")
        #expect(r.status == 3)
        #expect(r.stdout.contains("before the barrier request was answered"), "\(r.stdout)")
        #expect(r.stdout.contains("1 ended early"))

        let held = try await Self.conformance("fork-holds-stdout")
        #expect(held.status == 3)
        #expect(held.stdout.contains("the plugin exited with status 0 but its stdout stayed open"), "\(held.stdout)")
    }

    @Test func rulesBrokenOnAWorkingTransportExitOne() async throws {
        let twice = try await Self.conformance("answer-twice")
        #expect(twice.status == 1, "\(twice.stdout)")
        #expect(twice.stdout.contains("FAIL events.flag [seed]"))
        let garbage = try await Self.conformance("garbage")
        #expect(garbage.status == 1)
        #expect(garbage.stdout.contains(#"a frame that is not JSON (stdout must carry protocol frames only): "#))
        #expect(garbage.stdout.contains(#"this is not JSON \x1b[31m"#), "\(garbage.stdout)")
    }

    /// The hostile method name (escape sequences, a C1 CSI, a bidi override) is
    /// shown in the failure, escaped: no byte of it reaches the terminal raw.
    @Test func escapeSequencesAreShownNotObeyed() async throws {
        let r = try await Self.conformance(
            "escapes", ["--filter", "events.only-after-initialize", "--profile", "seed"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("pwned"), "\(r.stdout)")
        for text in [r.stdout, r.stderr] {
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" })
        }
    }

    @Test func failFastStopsAfterTheFirstFailure() async throws {
        let r = try await ConformanceHarness.host(
            ["conformance", "--filter", "jsonrpc.batch", "--jobs", "1", "--fail-fast"],
            environment: ["BSP_FAULT": "batch-reversed"])
        #expect(r.status == 1)
        let runs = ConformanceCatalogue.runs(of: ConformanceCatalogue.matching("jsonrpc.batch"), profile: nil).count
        let table = r.stdout.split(separator: "\n").filter { $0.hasPrefix("jsonrpc.batch.") }
        #expect(table.count < runs && table.last?.contains("FAIL") == true, "\(r.stdout)")
        #expect(r.stdout.contains("stopped early (--fail-fast: \(table.last?.split(separator: " ").first ?? "")"))
        #expect(r.stdout.contains("\(runs - table.count) check(s) not run"))
        #expect(r.stderr.contains("stopped early (--fail-fast: "))
    }

    /// In process, with a lower bound: the figures in the message are the bound's.
    @Test func theBoundsComeFromPeerLimits() async throws {
        let check = try #require(ConformanceCatalogue.named("events.flag"))
        let outcomes = try await ConformanceHarness.run(
            [(check, .seed)], executable: Binaries.hostilePlugin, environment: ["HOSTILE_MODE": "flood"],
            limits: PeerLimits(maxUnpromptedFrames: 300))
        let o = try #require(outcomes.first)
        #expect(o.status == .failed && o.breach == .flooding)
        #expect(o.reason?.hasPrefix("the plugin flooded stdout: 301 frames") == true, "\(o.reason ?? "")")
        #expect(o.failure?.actual.count == CheckRunner.reportedFramesOfBreach + 1)
        #expect(o.failure?.actual.last?.hasSuffix(" more not kept)") == true)
    }

    /// A conforming plugin without `--dispatch tauri` (it refuses the flag, or its
    /// `rpc.discover` does not list `plugin/dispatchSchedule`) has the race checks
    /// skipped, with the reason, not failed.
    @Test func theRaceChecksAreSkippedWithoutTheDispatchExtension() async throws {
        let refuses = try ConformanceHarness.script(
            "no-dispatch",
            """
            for a in "$@"; do
              if [ "$a" = --dispatch ]; then echo "no-dispatch: unknown option --dispatch" >&2; exit 64; fi
            done
            exec '\(Binaries.plugin)' "$@"
            """)
        let unlisted = try ConformanceHarness.script(
            "unlisted",
            "'\(Binaries.plugin)' \"$@\" | sed -u 's#plugin/dispatchSchedule#plugin/dispatchXchedule#g'")
        for (plugin, why) in [
            (
                refuses,
                "plugin/dispatchSchedule: the plugin exited with status 64 (a usage error) when started with "
                    + "--events --dispatch tauri"
            ),
            (unlisted, "plugin/dispatchSchedule: not listed by rpc.discover"),
        ] {
            let r = try await ConformanceHarness.host([
                "conformance", "--plugin", plugin, "--filter", "invoke.answered-once.race", "--format", "json",
            ])
            #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
            let checks = try JSONParser.parse(Array(r.stdout.utf8))["checks"]?.arrayValue ?? []
            #expect(checks.count == 2)
            for c in checks {
                #expect(c["result"] == "skip" && c["reason"] == .string("skipped (extension not offered: \(why))"))
            }
        }
    }

    /// A notification of a method the contract does not name, before `initialize`:
    /// `events.only-after-initialize` fails; where such notifications are allowed, it is ignored.
    @Test func aNotificationBeforeInitializeFails() async throws {
        let chatty = try ConformanceHarness.script(
            "chatty", #"echo '{"jsonrpc":"2.0","method":"x/hello","params":{}}'; exec '\#(Binaries.plugin)' "$@""#)
        let outcomes = try await ConformanceHarness.run(
            ["events.only-after-initialize", "events.flag"].map { (ConformanceCatalogue.named($0)!, Profile.seed) },
            executable: chatty)
        #expect(outcomes.map(\.status) == [.failed, .passed])
        #expect(outcomes[0].failure?.actual.first == #"{"jsonrpc":"2.0","method":"x/hello","params":{}}"#)
    }

    /// SIGTERM in the middle of a run ends the host (as the signal does) and its
    /// plugins; the host used to kill the plugins and go on with the next checks.
    @Test func aSignalEndsTheRun() async throws {
        let status = try await onThread { () -> (SpawnedProgram.Termination, String) in
            let p = try SpawnedProgram(
                Binaries.host, ["conformance", "--plugin", Binaries.hostilePlugin, "--jobs", "2"],
                environment: ProcessInfo.processInfo.environment.merging(
                    ["HOSTILE_MODE": "slow-start", "HOSTILE_SECONDS": "1"]) { $1 })
            p.closeStdin()
            SpawnedProgram.discardOnThread(p.stdout)
            // The first progress line comes once the first request is answered: checks are running.
            var seen: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !seen.contains(0x0A) {
                let n = SpawnedProgram.read(p.stderr, into: &buffer)
                if n == 0 { break }
                seen += buffer[0..<n]
            }
            p.kill(SIGTERM)
            return (p.waitWithUsage().termination, String(decoding: seen, as: UTF8.self))
        }
        #expect(status.0.signal == SIGTERM, "ended by \(status.0): \(status.1)")
    }
}
