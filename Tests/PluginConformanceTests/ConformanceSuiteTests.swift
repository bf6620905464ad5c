import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// The suite against the clean plugin, against a second conforming plugin that
/// chooses differently (the test double), and against plugins that are wrong in
/// ways the catalogue's faults do not cover (a hang, garbage on stdout).
@Suite("conformance suite")
struct ConformanceSuiteTests {
    @Test func cleanPluginPassesEveryCheckUnderBothProfiles() async throws {
        let runs = ConformanceCatalogue.runs(of: ConformanceCatalogue.all, profile: nil)
        let outcomes = try await ConformanceHarness.run(runs)
        #expect(outcomes.count == runs.count)
        for o in outcomes where !o.passed { Issue.record("\(o.failureReport)") }
        let seed = outcomes.filter { $0.profile == .seed }
        let strict = outcomes.filter { $0.profile == .strict }
        #expect(seed.count > 100 && strict.count > 100)
        let summary = ConformanceSummary(outcomes)
        #expect(summary.failed == 0 && summary.skipped == 0 && summary.passed == runs.count)
        // Every frame of every check was validated against the OpenRPC document: each
        // check sees at least its barrier replies, and the whole suite thousands of frames.
        for o in outcomes {
            let steps = ConformanceCatalogue.named(o.name)!.script(o.profile).count
            #expect(o.framesValidated >= steps, "\(o.name): \(o.framesValidated) frames validated for \(steps) steps")
        }
        #expect(
            summary.framesValidated > 1500,
            """
            conformance: \(ConformanceCatalogue.all.count) checks, \(outcomes.count) runs (\(seed.count) seed, \
            \(strict.count) strict): \(summary.line); \(summary.framesValidated) frames validated
            """)
    }

    /// The suite stays honest: a second plugin that conforms while choosing differently
    /// wherever the contract is silent (an `at` and a `seq` on every event, extra
    /// members in every result, other error messages and data, `id: null` for every
    /// Invalid Request, `registered` as an object, no `os/submit`, no `rpc.discover`)
    /// passes every check, and only the checks needing the extensions it lacks are skipped.
    @Test func theTestDoublePassesWithOnlyTheExtensionChecksSkipped() async throws {
        let runs = ConformanceCatalogue.runs(of: ConformanceCatalogue.all, profile: nil)
        let outcomes = try await ConformanceHarness.run(runs, executable: Binaries.conformanceDouble)
        for o in outcomes where o.status == .failed { Issue.record("\(o.failureReport)") }
        let skipped = Set(outcomes.filter { $0.status == .skipped }.map(\.name))
        // It withholds these two; it offers plugin/dispatchSchedule, so the race check runs.
        let withheld: Set = ["os/submit", "rpc.discover"]
        let needsWithheld = Set(ConformanceCatalogue.all.filter { !withheld.isDisjoint(with: $0.requires) }.map(\.name))
        #expect(skipped == needsWithheld && skipped.count == 3)
        #expect(outcomes.contains { $0.name == "invoke.answered-once.race" && $0.status == .passed })
        #expect(
            outcomes.filter { $0.status == .skipped }.allSatisfy {
                $0.reason?.hasPrefix("skipped (extension not offered: ") == true
            })
        let summary = ConformanceSummary(outcomes)
        #expect(
            summary.failed == 0 && summary.passed + summary.skipped == runs.count && summary.framesValidated > 1500,
            "conformance against the test double: \(summary.line); \(summary.framesValidated) frames validated")
    }

    @Test func everySectionHasChecksAndNamesAreUnique() {
        let names = ConformanceCatalogue.all.map(\.name)
        #expect(Set(names).count == names.count, "duplicate check names")
        for section in 1...6 {
            #expect(ConformanceCatalogue.all.contains { $0.section == section }, "no check for section \(section)")
        }
        for check in ConformanceCatalogue.all {
            #expect(check.name.split(separator: ".").count >= 2, "\(check.name) is not named after a rule family")
            #expect(!check.rule.isEmpty && !check.profiles.isEmpty)
            #expect(!check.script(check.profiles[0]).isEmpty, "\(check.name) has no steps")
            if !check.requires.isEmpty {
                #expect(check.rule.contains("Needs the"), "\(check.name) must say that it needs an extension")
            }
        }
    }

    @Test func aHangIsAFailureWithWhatWasReceived() async throws {
        // Answers the first request, then reads and never answers again.
        let hang = try ConformanceHarness.script(
            "hang", #"read line; echo '{"id":1,"jsonrpc":"2.0","result":null}'; cat >/dev/null"#)
        let check = ConformanceCatalogue.named("framing.auto.ndjson")!
        let (outcomes, elapsed) = try await ConformanceHarness.runTimed(
            [(check, .seed)], executable: hang, timeout: .milliseconds(500))
        let o = try #require(outcomes.first)
        #expect(!o.passed)
        #expect(o.failure?.actual == [#"{"id":1,"jsonrpc":"2.0","result":null}"#])
        #expect(o.failure?.note?.contains("no reply to the barrier") == true)
        #expect(o.failureReport.contains("hangs"))
        // A hang catcher, generous for a starved sanitizer run: the fake plugin never
        // ends on its own, so a suite that waited for it would never get here.
        #expect(elapsed < .seconds(120))
    }

    @Test func aPluginThatStopsReadingCannotBlockTheSuite() async throws {
        // Never reads stdin: the 1 MiB check's write blocks once the pipe is full.
        let deaf = try ConformanceHarness.script("deaf", "exec sleep 600")
        let (outcomes, elapsed) = try await ConformanceHarness.runTimed(
            [(ConformanceCatalogue.named("framing.oversized.default-limit")!, .seed)], executable: deaf,
            timeout: .milliseconds(500))
        #expect(outcomes.first?.passed == false)
        #expect(
            outcomes.first?.failure?.note?.contains("stopped reading its stdin") == true,
            "\(outcomes.first?.failureReport ?? "")")
        // Generous for a starved sanitizer run, yet far short of the 600 s the plugin
        // would sleep if waited for.
        #expect(elapsed < .seconds(120))
    }

    @Test func garbageOnStdoutFailsAtOnce() async throws {
        let garbage = try ConformanceHarness.script("garbage", "echo 'this is not a frame'; cat >/dev/null")
        let outcomes = try await ConformanceHarness.run(
            [
                (ConformanceCatalogue.named("framing.auto.ndjson")!, .seed),
                (ConformanceCatalogue.named("framing.auto.lsp")!, .seed),
            ],
            executable: garbage, timeout: .seconds(20))
        #expect(outcomes.count == 2)
        #expect(outcomes[0].failure?.note?.contains("not JSON") == true, "\(outcomes[0].failureReport)")
        #expect(outcomes[1].failure?.note?.contains("not lsp-framed") == true, "\(outcomes[1].failureReport)")
        #expect(outcomes.allSatisfy { $0.seconds < 10 })
    }

    @Test func aMissingPluginFailsEveryCheckClearly() async throws {
        let outcomes = try await ConformanceHarness.run(
            [(ConformanceCatalogue.all[0], .seed)], executable: "/nonexistent/plugin")
        #expect(outcomes.first?.passed == false)
        #expect(outcomes.first?.reason?.contains("cannot start the plugin") == true)
    }
}
