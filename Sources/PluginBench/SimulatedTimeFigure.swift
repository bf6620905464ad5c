import HostProtocol

/// How much simulated device time the system level covered per wall second, with one
/// plugin (`process`: the binary; `builtin`: the engine in the host's process) and a
/// number of jobs.
package struct SimulatedTimeFigure: Sendable {
    package var plugin: String
    package var jobs: Int
    /// Wall seconds.
    package var seconds: Double
    package var cases: Int
    package var steps: Int
    /// Virtual seconds covered, all jobs together.
    package var simulatedSeconds: Double
    /// Distinct reasons cases could not be played to their end (0 in a healthy run).
    package var failedRuns: Int

    package init(
        plugin: String, jobs: Int, seconds: Double, cases: Int, steps: Int, simulatedSeconds: Double,
        failedRuns: Int
    ) {
        self.plugin = plugin
        self.jobs = jobs
        self.seconds = seconds
        self.cases = cases
        self.steps = steps
        self.simulatedSeconds = simulatedSeconds
        self.failedRuns = failedRuns
    }

    /// Simulated device-days per wall second.
    package var deviceDaysPerSecond: Double { simulatedSeconds / 86_400 / max(seconds, 1e-9) }
    package var stepsPerSecond: Double { Double(steps) / max(seconds, 1e-9) }

    var json: JSONValue {
        [
            "plugin": .string(plugin), "jobs": .number(jobs), "seconds": .number((seconds * 100).rounded() / 100),
            "cases": .number(cases), "steps": .number(steps), "stepsPerSecond": .number(stepsPerSecond.rounded()),
            "simulatedDays": .number((simulatedSeconds / 864).rounded() / 100),
            "deviceDaysPerSecond": .number((deviceDaysPerSecond * 100).rounded() / 100),
            "failedRuns": .number(failedRuns),
        ]
    }

    var text: String {
        let name = plugin == "builtin" ? "built-in engine" : "plugin binary"
        return "  \(name), \(jobs) job\(jobs == 1 ? "" : "s"): "
            + String(
                format: "%.1f device-days/s, %.0f steps/s (%d cases, %.0f days in %.1f s)", deviceDaysPerSecond,
                stepsPerSecond, cases, simulatedSeconds / 86_400, seconds)
            + (failedRuns > 0 ? ", \(failedRuns) kind(s) of run failure" : "")
    }
}
