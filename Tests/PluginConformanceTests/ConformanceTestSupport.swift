import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// Running the suite and the `plugin-host conformance` command from tests.
enum ConformanceHarness {
    /// The outcome of a command run.
    struct CommandRun: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `plugin-host ARGS` with extra environment variables.
    static func host(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandRun {
        let r = try await runHost(arguments, env: environment)
        return CommandRun(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// Runs (check, profile) pairs against `executable` in-process.
    static func run(
        _ runs: [(ConformanceCheck, Profile)], executable: String = Binaries.plugin,
        environment: [String: String] = [:],
        timeout: DispatchTimeInterval = .seconds(20), limits: PeerLimits = PluginUnderTest.defaultLimits,
        jobs: Int = ConformanceSuite.defaultJobs
    ) async throws -> [CheckOutcome] {
        try await runTimed(
            runs, executable: executable, environment: environment, timeout: timeout, limits: limits, jobs: jobs
        ).outcomes
    }

    /// `run`, and how long the suite itself took, measured on its own thread (the
    /// time until the test resumes also counts waiting for a cooperative thread, which
    /// other tests' blocking work can hold for many seconds on a loaded machine).
    static func runTimed(
        _ runs: [(ConformanceCheck, Profile)], executable: String = Binaries.plugin,
        environment: [String: String] = [:],
        timeout: DispatchTimeInterval = .seconds(20), limits: PeerLimits = PluginUnderTest.defaultLimits,
        jobs: Int = ConformanceSuite.defaultJobs
    ) async throws -> (outcomes: [CheckOutcome], elapsed: Duration) {
        let plugin = PluginUnderTest(executable: executable, environment: environment, timeout: timeout, limits: limits)
        let work = runs.map { RunPair(check: $0.0, profile: $0.1) }
        return try await onThread {
            let clock = ContinuousClock()
            let started = clock.now
            let outcomes = ConformanceSuite(plugin: plugin, jobs: jobs).run(work.map { ($0.check, $0.profile) })
            return (outcomes, clock.now - started)
        }
    }

    /// Every check under its first profile.
    static var onePerCheck: [(ConformanceCheck, Profile)] {
        ConformanceCatalogue.all.map { ($0, $0.profiles[0]) }
    }

    /// A shell script in a fresh temporary directory, made executable; returns its path.
    static func script(_ name: String, _ body: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try ExecutableFile.create(Array(("#!/bin/sh\n" + body + "\n").utf8), at: path)
        return path
    }

    private struct RunPair: Sendable {
        let check: ConformanceCheck
        let profile: Profile
    }
}
