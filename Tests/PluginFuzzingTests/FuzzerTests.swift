import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// The plugin-level fuzzer: the model agrees with the real plugin, injected
/// faults are caught and shrunk, shrinking is deterministic, traces replay.
@Suite("Plugin-level fuzzer")
struct FuzzerTests {
    func fuzzer(profile: Profile, seed: UInt64, runs: Int, fault: String? = nil, stopAfter: Int? = nil) -> PluginFuzzer
    {
        var env: [String: String] = [:]
        if let fault { env["BSP_FAULT"] = fault }
        return PluginFuzzer(
            configuration: .init(
                plugin: .init(
                    executable: Binaries.plugin, arguments: ["--profile", profile.rawValue, "--events"],
                    environment: env),
                profile: profile, seed: seed, runs: runs, seconds: 600, maxSteps: 40, jobs: 2,
                stopAfterFindings: stopAfter, replyTimeout: FuzzTestTimeouts.pluginReply),
            progress: FuzzProgress(quiet: true))
    }

    /// Under a sanitizer a quarter of the run (600 cases took 923 s under TSan).
    @Test(arguments: Profile.allCases)
    func modelAgreesWithThePluginOnALongRun(profile: Profile) async throws {
        let runs = SanitizerBuild.active ? 150 : 600
        let f = fuzzer(profile: profile, seed: 20_261_121, runs: runs)
        let findings = try await onThread { try f.run() }
        #expect(findings.isEmpty, "\(findings.map { "\($0.signature): \($0.explanation)" })")
        #expect(f.totals.cases == runs)
        #expect(f.totals.steps > runs * 8, "a long run: \(f.totals.steps) steps")
    }

    @Test(arguments: [
        ("resolve-before-reject", Profile.seed), ("timer-one-tick-late", .seed), ("complete-twice", .seed),
        ("config-not-persisted", .seed), ("drop-superseded", .strict), ("reschedule-after-stop", .seed),
    ])
    func injectedFaultsAreCaughtAndShrunk(fault: String, profile: Profile) async throws {
        let f = fuzzer(profile: profile, seed: 7, runs: 2000, fault: fault, stopAfter: 1)
        let findings = try await onThread { try f.run() }
        #expect(!findings.isEmpty, "\(fault) was not found in 2000 cases")
        let smallest = findings.map(\.steps.count).min() ?? .max
        #expect(smallest <= 6, "\(fault): the shortest shrunk trace has \(smallest) steps")
        for finding in findings {
            #expect(finding.outcome.mismatch != nil, "a shrunk case must still fail")
            #expect(finding.steps.count <= finding.originalSteps)
        }
    }

    @Test func shrinkingIsDeterministicAndTracesReplay() async throws {
        let f = fuzzer(profile: .seed, seed: 11, runs: 400, fault: "resolve-instead-of-reject")
        let first = try await onThread { try f.run() }
        let second = try await onThread { try f.run() }
        try #require(!first.isEmpty)
        #expect(first.map(\.signature) == second.map(\.signature))
        #expect(first.map(\.steps) == second.map(\.steps), "the same seed must shrink to the same steps")

        // The trace replays identically against the same faulty plugin, and differs against a correct one.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-trace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = first[0].trace(profile: .seed, seed: 11, pluginArguments: ["--profile", "seed", "--events"])
        let path = try trace.write(to: dir, name: "t.jsonl")
        let read = try TraceFile.read(path: path)
        #expect(read.header.finding == first[0].signature)
        #expect(read.lines.count == first[0].steps.count)
        let faulty = try await runHost(
            ["replay", path, "--plugin", Binaries.plugin], env: ["BSP_FAULT": "resolve-instead-of-reject"])
        #expect(faulty.status == 0 && faulty.stdout.contains("identical"), "\(faulty.stdout)")
        let fixed = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        #expect(fixed.status == 1 && fixed.stdout.contains("different"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("model: agrees now"))
    }

    @Test func exhaustiveExplorationDeduplicatesStates() async throws {
        let (states, sequences, failures) = try await onThread { () throws -> (Int, Int, Int) in
            let driver = try PluginDriver(
                plugin: .init(executable: Binaries.plugin, arguments: ["--profile", "seed", "--events"]))
            defer { driver.close() }
            let explorer = ExhaustiveExplorer(driver: driver, profile: .seed, progress: FuzzProgress(quiet: true))
            let states = try explorer.explore(depth: 4)
            return (states, explorer.sequencesRun, explorer.failures.count)
        }
        #expect(failures == 0)
        #expect(states > 50, "only \(states) distinct states at depth 4")
        // Without deduplication depth 4 over 13 letters would be 13^1 + ... + 13^4 = 30,940 sequences.
        #expect(sequences < 2000, "\(sequences) sequences: states were not deduplicated")
    }

    @Test func exhaustiveExplorationFindsAFault() async throws {
        let failures = try await onThread { () throws -> Int in
            let driver = try PluginDriver(
                plugin: .init(
                    executable: Binaries.plugin, arguments: ["--profile", "seed", "--events"],
                    environment: ["BSP_FAULT": "expiration-no-reschedule"]))
            defer { driver.close() }
            let explorer = ExhaustiveExplorer(driver: driver, profile: .seed, progress: FuzzProgress(quiet: true))
            _ = try explorer.explore(depth: 3)
            return explorer.failures.count
        }
        #expect(failures > 0)
    }
}
