import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host fuzz --exhaustive`: every sequence up to `--depth` over the small alphabet.
enum ExhaustiveCommand {
    static func run(_ s: FuzzCommand.Settings) -> Int32 {
        let args = FuzzCommand.pluginArguments(s)
        let options = PluginLocator.launcher(s.plugin, arguments: args)
        let progress = FuzzProgress()
        let started = Date()
        let driver: PluginDriver
        do {
            driver = try PluginDriver(plugin: options, timeout: FuzzCommand.replyTimeout(s))
        } catch {
            return FuzzCommand.report(PluginFailure(error))
        }
        let explorer = ExhaustiveExplorer(
            driver: driver, profile: s.profile, progress: progress, dispatch: s.dispatch)
        let states: Int
        progress.start()
        do {
            states = try explorer.explore(depth: s.depth)
        } catch {
            progress.finish(cases: explorer.sequencesRun, steps: explorer.stepsRun, findings: explorer.failures.count)
            driver.close()
            return FuzzCommand.report(PluginFailure(error, startedBefore: explorer.sequencesRun > 1))
        }
        progress.finish(cases: explorer.sequencesRun, steps: explorer.stepsRun, findings: explorer.failures.count)
        let elapsed = Date().timeIntervalSince(started)
        Console.out(
            "fuzz --exhaustive (profile \(s.profile.rawValue), depth \(s.depth), alphabet \(alphabet(s))): \(states)"
                + " distinct states explored, \(explorer.sequencesRun) sequences run (\(explorer.stepsRun) steps) in"
                + " \(String(format: "%.1f", elapsed)) s")
        if explorer.failures.isEmpty {
            driver.close()
            Console.out("no findings: every reply agreed with the reference model")
            return ExitCode.ok
        }
        Console.out("\(FuzzProgress.count(explorer.failures.count, "finding")):")
        var resetID = 1_000_000
        var current = driver
        for (i, (signature, steps)) in explorer.failures.sorted(by: { $0.key < $1.key }).enumerated() {
            do {
                let result = try PluginFuzzer.shrink(
                    steps, signature: signature, caseSeed: 0, profile: s.profile, plugin: options, driver: current,
                    resetID: resetID, dispatch: s.dispatch)
                current = result.driver
                resetID = result.resetID
                FuzzCommand.report(
                    result.finding, number: i + 1, name: "exhaustive-\(i + 1)-\(FuzzCommand.slug(signature)).jsonl",
                    settings: s, pluginArguments: args)
            } catch {
                var failure = PluginFailure(error, startedBefore: true)
                failure.whileShrinking = true
                return FuzzCommand.report(failure)
            }
        }
        current.close()
        return ExitCode.failed
    }

    /// The letters, and under `--dispatch tauri` the race letters with their schedules.
    static func alphabet(_ s: FuzzCommand.Settings) -> String {
        let letters = ExhaustiveExplorer.Letter.allCases.map(\.rawValue)
        guard s.dispatch == .tauri else { return letters.joined(separator: " ") }
        let races = ExhaustiveExplorer.RaceLetter.allCases.map(\.rawValue)
        return (letters + races).joined(separator: " ") + ", each race under every one-preemption schedule"
    }
}
