import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// The realistic device days `plugin-host bench` plays at the system level: under
/// `--os ios` they are days in which the OS launches the refresh task again and again
/// and the processing task at night, and the measurement counts their virtual time.
@Suite("Device days")
struct DeviceDaysTests {
    static let arguments = ["--profile", "seed", "--clock", "virtual", "--os", "ios", "--os-seed", "1"]

    @Test func aDayIsTwentyFourHoursOfTheAppAtWork() async throws {
        var days = DeviceDays(seed: 3)
        let c = days.next(days: 2)
        let advanced = c.actions.reduce(0.0) { total, a in
            if case .advance(let t) = a { return total + t.seconds }
            return total
        }
        #expect(advanced == 2 * 86_400)
        #expect(c.scenario.restartAtLaunch && c.scenario.processingNeedsPower)
        #expect(c.scenario.config.iosEarliestRefreshBeginMinutes == 15)
        #expect(c.scenario.config.iosEarliestProcessingBeginMinutes == 60)
        #expect(c.scenario.config.iosSafetyTimeoutSecs == StartKeepaliveConfig().iosSafetyTimeoutSecs)
        // The same seed gives the same days.
        var again = DeviceDays(seed: 3)
        #expect(again.next(days: 2).actions == c.actions)

        let outcome = try await onThread {
            // Under a starved sanitizer run an answer can take past the 10 s default (the
            // fresh-clone CI's AddressSanitizer run once missed it).
            let runner = SystemCaseRunner(
                launcher: .inProcess(arguments: Self.arguments, stderrPrefix: ""),
                answerTimeout: .seconds(SanitizerBuild.active ? 120 : 10))
            defer { runner.close() }
            return c.run(on: runner, behaviour: .seed)
        }
        #expect(outcome.error == nil)
        #expect(outcome.simulated.seconds == 2 * 86_400)
        let lines = outcome.timeline.flatMap { $0 }
        let refreshLaunches = lines.filter { $0.contains("os/taskLaunched") && $0.contains("bg-refresh") }
        // (The device's defaults space them by use: field reports see 2 to 4 a day.)
        #expect(refreshLaunches.count >= 4, "\(refreshLaunches.count) refresh launches in two days")
        // Each launch after iOS ended the app starts a new process whose code starts the service.
        #expect(lines.filter { $0.contains("the app's code starts the service at launch") }.count >= 5)
        #expect(lines.filter { $0.contains("completeBgTask {\"success\":true}") }.count >= 5)
        // The processing request waits for the night's power; iOS weighs it then.
        let processing = lines.filter {
            ($0.contains("os/taskLaunched") || $0.contains("os/launchDeferred")) && $0.contains("bg-processing")
        }
        #expect(!processing.isEmpty, "the processing request was never weighed")
    }

    @Test func theMeasurementCountsSimulatedTime() async throws {
        let speed = try await onThread {
            SystemFuzzer.measureDeviceDays(
                .init(
                    plugin: PluginLauncher(executable: Binaries.plugin, arguments: Self.arguments, stderrPrefix: ""),
                    behaviour: .seed, seed: 1, runs: 3, seconds: 600, maxSteps: 0, jobs: 1, os: .ios),
                days: 1)
        }
        #expect(speed.cases == 3)
        #expect(speed.simulatedSeconds == 3 * 86_400)
        #expect(speed.steps > 3 * 50)
        #expect(speed.failedRuns == 0)
    }
}
