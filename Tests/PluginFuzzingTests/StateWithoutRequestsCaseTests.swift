import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import HostSimulation
@testable import PluginFuzzing

/// The system fuzzer reads the built-in engine's state as a value
/// (`SystemSimulation.Options.stateWithoutRequests`): every case it generates plays
/// exactly as it does with the `plugin/state` requests, findings included, under each
/// OS and dispatch, both profiles, a mutant plugin, and seven-day device cases.
@Suite("System cases without plugin/state requests")
struct StateWithoutRequestsCaseTests {
    /// One configuration: the plugin's arguments and environment, the fuzzer's settings.
    struct Setup: Sendable, CustomStringConvertible {
        var os = OSMode.manual
        var dispatch = DispatchMode.serial
        var profile = Profile.seed
        var fault: String?
        var deviceDays = false

        var arguments: [String] {
            ["--profile", profile.rawValue, "--clock", "virtual"]
                + (os == .ios ? ["--os", "ios", "--os-seed", "7"] : [])
                + (dispatch == .tauri ? ["--dispatch", "tauri"] : [])
        }
        var description: String {
            "\(os) \(dispatch) \(profile)\(fault.map { " BSP_FAULT=\($0)" } ?? "")\(deviceDays ? " device days" : "")"
        }
    }

    static let setups: [Setup] = [
        Setup(), Setup(dispatch: .tauri), Setup(os: .ios), Setup(os: .ios, dispatch: .tauri),
        Setup(os: .ios, dispatch: .tauri, profile: .strict),
        Setup(dispatch: .tauri, fault: "complete-twice"),
        Setup(os: .ios, deviceDays: true),
    ]

    @Test(arguments: setups)
    func everyCasePlaysAsWithTheRequests(setup: Setup) async throws {
        let launcher = PluginLauncher.inProcess(
            arguments: setup.arguments, environment: setup.fault.map { ["BSP_FAULT": $0] } ?? [:], stderrPrefix: "")
        let system = SystemLevel(
            configuration: .init(
                plugin: launcher, behaviour: setup.profile, seed: 1, runs: nil, seconds: 600, maxSteps: 24, jobs: 1,
                os: setup.os, dispatch: setup.dispatch))
        var days = DeviceDays(seed: 5)
        let cases = setup.deviceDays ? (0..<2).map { _ in days.next(days: 3) } : (1...40).map(system.generate(seed:))
        let timeout = Duration.seconds(SanitizerBuild.active ? 120 : 10)
        let (found, reads) = try await onThread { () throws -> (Int, (direct: Int, wire: Int)) in
            let direct = SystemCaseRunner(launcher: launcher, answerTimeout: timeout, stateWithoutRequests: true)
            let wire = SystemCaseRunner(launcher: launcher, answerTimeout: timeout, stateWithoutRequests: false)
            defer {
                direct.close()
                wire.close()
            }
            var found = 0
            for (k, c) in cases.enumerated() {
                let a = c.run(on: direct, behaviour: setup.profile, dispatch: setup.dispatch)
                let b = c.run(on: wire, behaviour: setup.profile, dispatch: setup.dispatch)
                #expect(a.error == b.error, "case \(k): \(a.error ?? "") \(b.error ?? "")")
                #expect(a.timeline == b.timeline, "case \(k): the timelines differ")
                #expect(a.signatures == b.signatures, "case \(k)")
                #expect(a.violations.map(\.step) == b.violations.map(\.step), "case \(k)")
                #expect(a.races == b.races && a.services == b.services, "case \(k)")
                #expect(a.simulated == b.simulated, "case \(k)")
                if !a.signatures.isEmpty { found += 1 }
            }
            let reads = try (direct.current(), wire.current())
            return (
                found,
                (reads.0.connection.state.withLock(\.statesRead), reads.1.connection.state.withLock(\.statesRead))
            )
        }
        // The direct runner read the state without requests; the other one asked every time.
        #expect(reads.direct > cases.count && reads.wire == 0, "\(reads)")
        // The seed Rust side breaks invariants: cases with findings are compared too (the
        // strict plugin and Rust side are meant to break none).
        if !setup.deviceDays, setup.profile == .seed {
            #expect(found > 0, "no case of 40 found anything under \(setup)")
        }
    }
}
