import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost
@testable import RustSide

/// A race decided in a later app process (`--os ios`) is recorded under that process.
@Suite("Race records name their process")
struct RaceProcessTests {
    /// In the second process (the user opened the app after a termination), the safety
    /// timer and the listener's timeout are due at one instant: the record names process 2.
    @Test func aDeadlineRaceInTheSecondProcess() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            try sim.os(OSTerminate.self, .init(reason: .system))
            try sim.os(OSOpenApp.self, EmptyParams())
            #expect(sim.currentProcess.number == 2)
            var config = StartKeepaliveConfig()
            config.iosCancelListenerTimeoutSecs = 28
            #expect(try sim.start(config) == nil)
            try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
            try sim.advance(28)
            let deadline = sim.raceRecords.filter { $0.race == .pluginVsHostDeadline }
            #expect(deadline.map(\.process) == [2], "\(sim.raceRecords)")
        }
    }
}
