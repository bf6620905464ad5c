import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// The fuzzers against the plugin's engine in this process (`--plugin builtin`): the
/// same cases, findings and shrunk traces as against the binary, and traces that
/// replay against either.
@Suite("Fuzzing the built-in engine")
struct BuiltinPluginTests {
    @Test func systemLevelFindsWhatTheBinaryGives() async throws {
        let arguments = ["--profile", "seed", "--clock", "virtual"]
        func fuzz(_ plugin: PluginLauncher) -> SystemFuzzer {
            SystemFuzzer(
                configuration: .init(
                    plugin: plugin, behaviour: .seed, seed: 5, runs: 60, seconds: 600, maxSteps: 25, jobs: 1,
                    answerTimeout: FuzzTestTimeouts.systemAnswer),
                progress: FuzzProgress(quiet: true))
        }
        let builtin = fuzz(.inProcess(arguments: arguments, stderrPrefix: ""))
        let binary = fuzz(PluginLauncher(executable: Binaries.plugin, arguments: arguments, stderrPrefix: ""))
        let (a, b) = try await onThread { (try builtin.run(), try binary.run()) }
        #expect(!a.isEmpty)
        #expect(a.map(\.signature) == b.map(\.signature))
        #expect(a.map(\.systemCase.actions) == b.map(\.systemCase.actions))
        #expect(a.map(\.outcome.timeline) == b.map(\.outcome.timeline))
        #expect(builtin.totals == binary.totals)
    }

    @Test func pluginLevelTracesReplayAgainstTheBinary() async throws {
        let out = FileManager.default.temporaryDirectory
            .appendingPathComponent("fuzz-builtin-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let env = ["BSP_FAULT": "resolve-instead-of-reject"]
        let r = try await runHost(
            ["fuzz", "--plugin", "builtin", "--level", "plugin", "--seed", "11", "--runs", "300", "--out", out],
            env: env)
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("plugin builtin"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        let trace = try #require(written.first { $0.hasSuffix(".jsonl") })
        let path = (out as NSString).appendingPathComponent(trace)
        let replayed = try await runHost(["replay", path, "--plugin", Binaries.plugin], env: env)
        #expect(replayed.status == 0 && replayed.stdout.contains("identical"), "\(replayed.stdout)")
        let strict = try await runHost(
            ["fuzz", "--plugin", "builtin", "--profile", "strict", "--seed", "3", "--runs", "200"])
        #expect(strict.status == 0 && strict.stdout.contains("no findings"), "\(strict.stdout)")
    }
}
