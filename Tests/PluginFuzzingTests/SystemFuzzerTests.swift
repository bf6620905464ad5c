import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginFuzzing

/// The system-level fuzzer: seed's defects are found and shrunk; strict finds nothing.
@Suite("System-level fuzzer")
struct SystemFuzzerTests {
    func fuzzer(_ profile: Profile, seed: UInt64, runs: Int) -> SystemFuzzer {
        SystemFuzzer(
            configuration: .init(
                plugin: .init(
                    executable: Binaries.plugin, arguments: ["--profile", profile.rawValue], stderrPrefix: ""),
                behaviour: profile == .strict ? .strict : .seed, seed: seed, runs: runs, seconds: 600, maxSteps: 25,
                jobs: 2, answerTimeout: FuzzTestTimeouts.systemAnswer),
            progress: FuzzProgress(quiet: true))
    }

    @Test func seedProfileBreaksInvariantsWithShortTraces() async throws {
        let f = fuzzer(.seed, seed: 5, runs: 150)
        let findings = try await onThread { try f.run() }
        let invariants = Set(findings.compactMap { $0.violation?.invariant })
        #expect(invariants.contains(.d5), "a launch while no service runs: \(findings.map(\.signature))")
        #expect(
            invariants.isSuperset(of: [.d1, .d7]), "the thread leak and the pool's end: \(findings.map(\.signature))")
        for finding in findings {
            #expect(
                finding.systemCase.actions.count <= 8,
                "\(finding.signature) shrunk only to \(finding.systemCase.actions.count) steps")
            // The shrunk case still breaks the same invariant.
            let again = finding.systemCase.run(
                plugin: f.configuration.plugin, behaviour: .seed, stopAt: finding.signature)
            #expect(again.first(finding.signature) != nil)
            #expect(again.timeline == finding.outcome.timeline, "a system case must replay identically")
        }
    }

    @Test func strictProfileFindsNothing() async throws {
        let f = fuzzer(.strict, seed: 5, runs: 150)
        let findings = try await onThread { try f.run() }
        #expect(findings.isEmpty, "\(findings.map { "\($0.signature): \($0.explanation)" })")
        #expect(f.totals.cases == 150)
    }

    @Test func systemTracesReplayThroughTheCLI() async throws {
        let f = fuzzer(.seed, seed: 5, runs: 60)
        let findings = try await onThread { try f.run() }
        let finding = try #require(findings.first)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("system-trace-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try finding.trace(
            profile: .seed, seed: 5, pluginArguments: ["--profile", "seed", "--clock", "virtual"]
        ).write(to: dir, name: "s.jsonl")
        let r = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("identical"))
        #expect(r.stdout.contains("still broken"))
    }

    @Test func fuzzCommandExitsOneOnFindingsAndZeroOtherwise() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let seed = try await runHost([
            "fuzz", "--plugin", Binaries.plugin, "--level", "system", "--seed", "5", "--runs", "40", "--out", out,
        ])
        #expect(seed.status == 1, "\(seed.stdout)")
        #expect(seed.stdout.contains("D5:"))
        // The summary gives simulated time per second, each invariant's time to its first
        // finding, and each finding's shrink time and shrunk length (shapes, not values).
        #expect(seed.stdout.contains(" simulated device-days/s)"), "\(seed.stdout)")
        let lines = seed.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("D5:") && $0.contains("(first found after ") && $0.hasSuffix(" s)") })
        let findingLines = lines.filter { $0.contains("case seed ") }
        #expect(!findingLines.isEmpty)
        #expect(
            findingLines.allSatisfy {
                $0.contains(" found after ") && $0.contains(" s, shrunk in ") && $0.contains(" steps; trace ")
            })
        #expect(seed.stderr.contains("seed 5"), "the seed is printed at the start")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(written.contains { $0.hasSuffix(".jsonl") })
        let strict = try await runHost([
            "fuzz", "--plugin", Binaries.plugin, "--level", "plugin", "--profile", "strict", "--seed", "3", "--runs",
            "200",
        ])
        #expect(strict.status == 0, "\(strict.stdout)")
        #expect(strict.stdout.contains("no findings"))
        let usage = try await runHost(["fuzz", "--runs", "5", "--time", "5"])
        #expect(usage.status == 64)
    }
}
