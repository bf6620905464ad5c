import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost
@testable import RustSide

/// The service manager's bookkeeping does not outlive the runs it is about.
@Suite("ServiceManager tables")
struct ServiceManagerTableTests {
    /// A run a `Stop` cancelled is remembered (its completion races that `Stop`) only
    /// until the run has finished, under either behaviour.
    @Test(arguments: [Profile.seed, .strict])
    func stoppedRunsAreForgottenWhenTheyFinish(behaviour: Profile) async throws {
        try await onThread {
            let sim = try makeSimulation(behaviour: behaviour) { SyncService(runSeconds: 3600) }
            defer { sim.closeAndCheckReaped() }
            for _ in 1...3 {
                #expect(try sim.start() == nil)
                try sim.advance(1)
                #expect(try sim.stop() == nil)
                try sim.advance(1)
            }
            #expect(sim.serviceEvents.filter { if case .runFinished = $0 { true } else { false } }.count == 3)
            #expect(try sim.hostValue { await $0.stoppedRuns }.isEmpty)
        }
    }
}
