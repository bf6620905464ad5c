import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// The port's programs are built once per profile and shared by every later instance
/// (each `plugin/reset`, each process under `--os ios`); mutated ones are never kept.
/// That a shared program acts on the instance that runs it, not the one that built it,
/// is what every test that resets the plugin and goes on checks (the conformance suite
/// resets before each check; the fuzzer before each case).
struct ProgramLibraryTests {
    private func world(_ options: PluginOptions, _ library: ProgramLibrary) throws -> PluginWorld {
        try PluginWorld(
            options: options, infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"),
            events: EventRecorder().sink, monotonicNanoseconds: { 0 }, programs: library)
    }

    @Test("a second world builds nothing; another profile builds its own set")
    func sharedPerProfile() throws {
        let library = ProgramLibrary()
        let first = try world(PluginOptions(), library)
        let built = library.count
        #expect(built == 9)
        let second = try world(PluginOptions(), library)
        #expect(library.count == built)
        // The same programs, step for step (the labels are the seed's lines).
        #expect(first.plugin.completeBgTask.steps.map(\.label) == second.plugin.completeBgTask.steps.map(\.label))
        var strict = PluginOptions()
        strict.profile = .strict
        let third = try world(strict, library)
        #expect(library.count == 2 * built)
        // `waitForCancel` differs by profile: strict rejects a superseded invoke first.
        #expect(third.plugin.waitForCancel.steps.count > first.plugin.waitForCancel.steps.count)
    }

    @Test("a plugin with test-only mutations builds its own programs and keeps none")
    func mutatedProgramsAreNotKept() throws {
        let library = ProgramLibrary()
        var options = PluginOptions()
        options.faults = try FaultSet.parse("complete-twice")
        let mutated = try world(options, library)
        #expect(!mutated.plugin.mutations.isEmpty)
        #expect(library.count == 0)
    }
}
