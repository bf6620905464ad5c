import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// The system fuzzer reads the built-in engine's state as a value
/// (`SystemSimulation.Options.stateWithoutRequests`): every case it generates plays
/// exactly as it does with the `plugin/state` requests, findings included, under each
/// OS and dispatch.
@Suite("System cases without plugin/state requests")
struct StateWithoutRequestsCaseTests {
    @Test(arguments: [
        (OSMode.manual, DispatchMode.serial), (.manual, .tauri), (.ios, .serial), (.ios, .tauri),
    ])
    func everyCasePlaysAsWithTheRequests(os: OSMode, dispatch: DispatchMode) async throws {
        let arguments =
            ["--profile", "seed", "--clock", "virtual"] + (os == .ios ? ["--os", "ios", "--os-seed", "7"] : [])
            + (dispatch == .tauri ? ["--dispatch", "tauri"] : [])
        let launcher = PluginLauncher.inProcess(arguments: arguments, stderrPrefix: "")
        let level = SystemLevel(
            configuration: .init(
                plugin: launcher, behaviour: .seed, seed: 1, runs: nil, seconds: 600, maxSteps: 24, jobs: 1, os: os,
                dispatch: dispatch))
        let timeout = Duration.seconds(SanitizerBuild.active ? 120 : 10)
        let (cases, found) = try await onThread { () -> (Int, Int) in
            let direct = SystemCaseRunner(launcher: launcher, answerTimeout: timeout, stateWithoutRequests: true)
            let wire = SystemCaseRunner(launcher: launcher, answerTimeout: timeout, stateWithoutRequests: false)
            defer {
                direct.close()
                wire.close()
            }
            var found = 0
            for seed in UInt64(1)...40 {
                let c = level.generate(seed: seed)
                let a = c.run(on: direct, behaviour: .seed, dispatch: dispatch)
                let b = c.run(on: wire, behaviour: .seed, dispatch: dispatch)
                #expect(a.error == nil && b.error == nil, "case \(seed): \(a.error ?? "") \(b.error ?? "")")
                #expect(a.timeline == b.timeline, "case \(seed): the timelines differ")
                #expect(a.signatures == b.signatures, "case \(seed)")
                #expect(a.violations.map(\.step) == b.violations.map(\.step), "case \(seed)")
                #expect(a.races == b.races && a.services == b.services, "case \(seed)")
                #expect(a.simulated == b.simulated, "case \(seed)")
                if !a.signatures.isEmpty { found += 1 }
            }
            return (40, found)
        }
        #expect(cases == 40)
        // The Rust side's seed behaviour breaks invariants: cases with findings are compared too.
        #expect(found > 0, "no case of 40 found anything under \(os) \(dispatch)")
    }
}
