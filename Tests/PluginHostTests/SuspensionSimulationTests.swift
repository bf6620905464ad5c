import HostProtocol
import HostTestSupport
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// `SystemSimulation` under `--os ios` with the policy's `appStates` (issue 23): while the
/// plugin says the app is suspended, nothing of its Rust side runs; a Rust-side timer that came
/// due meanwhile fires at once when the app is resumed (a monotonic clock that kept counting).
@Suite("SystemSimulation: suspension freezes the Rust side")
struct SuspensionSimulationTests {
    /// When the service's run ended, from the timeline.
    static func runEndedAt(_ sim: SystemSimulation) -> VirtualTime? {
        sim.timeline.first { entry in
            if case .service(.runEnded) = entry.kind { true } else { false }
        }?.time
    }

    /// The service's 100 s of work (a host timer) would end at 100 s; the app is suspended at
    /// 5 s, so it ends only when the refresh launch at 900 s wakes the app, at that instant.
    @Test func rustTimersWaitWhileSuspendedAndFireOnResume() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            try sim.os(OSSetPolicy.self, try .init(json: ["appStates": true, "jetsamChance": 0]))
            #expect(try sim.start() == nil)
            try sim.advance(800)
            #expect(Self.runEndedAt(sim) == nil, "a suspended app's Rust timer fired")
            #expect(sim.clock.isFrozen(1) && sim.clock.nextDeadline == nil)
            #expect(sim.notes.contains("app process 1 is suspended: its Rust side stops (its timers wait)"))
            try sim.advance(200)
            #expect(Self.runEndedAt(sim) == VirtualTime(seconds: 900))
            #expect(sim.notes.contains { $0.hasPrefix("app process 1 resumes (background)") })
        }
    }

    /// Without `appStates` (switched off: the device's defaults have it on) the same work ends
    /// at its own time.
    @Test func withoutAppStatesTheTimerFiresOnTime() async throws {
        try await onThread {
            let sim = try makeIOSSimulation { SyncService(runSeconds: 100) }
            defer { sim.closeAndCheckReaped() }
            try sim.os(OSSetPolicy.self, try .init(json: ["appStates": false]))
            #expect(try sim.start() == nil)
            try sim.advance(800)
            #expect(Self.runEndedAt(sim) == VirtualTime(seconds: 100))
        }
    }
}
