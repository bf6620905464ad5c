import HostProtocol
import PluginBench
import PluginFuzzing
import PluginHost

/// `plugin-host bench`'s system-level figures: simulated device-days per wall second.
extension BenchCommand {
    /// Plays realistic device days (`DeviceDays`) under `--os ios` for `seconds` each through
    /// the plugin binary and the built-in engine, with 1 and 2 jobs.
    static func systemLevel(plugin: String, seconds: Double, step: (String) -> Void) -> [SimulatedTimeFigure] {
        let arguments = ["--profile", "seed", "--clock", "virtual", "--os", "ios", "--os-seed", "1"]
        var figures: [SimulatedTimeFigure] = []
        for (name, path) in [("process", plugin), ("builtin", PluginLocator.builtin)] {
            for jobs in [1, 2] {
                step("system level under --os ios, realistic device days: \(name), \(jobs) job(s), \(seconds) s")
                let speed = SystemFuzzer.measureDeviceDays(
                    .init(
                        plugin: PluginLocator.launcher(path, arguments: arguments), behaviour: .seed, seed: 1,
                        runs: nil, seconds: seconds, maxSteps: 0, jobs: jobs, os: .ios))
                figures.append(
                    SimulatedTimeFigure(
                        plugin: name, jobs: jobs, seconds: speed.seconds, cases: speed.cases, steps: speed.steps,
                        simulatedSeconds: speed.simulatedSeconds, failedRuns: speed.failedRuns))
            }
        }
        return figures
    }
}
