import HostProtocol
import HostSimulation
import PluginHost
import Synchronization

/// Starting the demo's plugin, and what is shown when it does not start: its stderr,
/// why, and a verdict (exit 2 when it could not be started or ended before answering
/// `initialize`, 3 when it answered with what is not a frame, flooded or stayed
/// silent past `--timeout`). A plugin that did not start is stopped and reaped before
/// the demo ends: none is left behind.
extension DemoCommand {
    /// Why the run could not begin.
    struct StartFailure: Error {
        /// The failure.
        let error: SystemSimulation.SimulationError
        /// The plugin's stderr until then (the first ``PeerLimits/maxStderrBytes``).
        let stderr: [String]
        /// Lines past that, counted.
        let stderrNotKept: (lines: Int, bytes: Int)
    }

    /// The plugin's stderr lines until the simulation is up (it keeps its own from then
    /// on): what a plugin that does not start has to say. Bounded like the timeline's.
    final class EarlyStderr: Sendable {
        private struct Kept {
            var lines: [String] = []
            var bytes = 0
            var dropped = (lines: 0, bytes: 0)
            var keeping = true
        }

        private let kept = Mutex(Kept())
        private let limit: Int

        init(limit: Int) { self.limit = limit }

        func add(_ line: String) {
            kept.withLock { k in
                guard k.keeping else { return }
                if k.bytes + line.utf8.count <= limit {
                    k.lines.append(line)
                    k.bytes += line.utf8.count
                } else {
                    k.dropped.lines += 1
                    k.dropped.bytes += line.utf8.count
                }
            }
        }

        /// Stops keeping and forgets what it kept.
        func stop() { kept.withLock { $0 = Kept(keeping: false) } }

        var lines: [String] { kept.withLock { $0.lines } }
        var dropped: (lines: Int, bytes: Int) { kept.withLock { $0.dropped } }
    }

    /// Starts the plugin and a simulation on it; on failure the plugin is closed.
    static func start(_ request: Request) -> Result<SystemSimulation, StartFailure> {
        let osArguments = request.ios.map { ["--os", "ios", "--os-seed", String($0.seed)] } ?? []
        let base = PluginLocator.launcher(
            request.pluginPath,
            arguments: ["--profile", request.settings.profile.rawValue, "--clock", "virtual"] + osArguments
                + request.passthrough)
        let limits = PeerLimits.default
        let early = EarlyStderr(limit: limits.maxStderrBytes)
        let launcher = PluginLauncher(description: base.description) { sink throws(HostError) in
            try base.start(stderrLine: { line in
                early.add(line)
                sink(line)
            })
        }
        let scenario = DemoScenario(settings: request.settings)
        let options = SystemSimulation.Options(
            plugin: launcher, behaviour: request.settings.profile == .strict ? .strict : .seed,
            serviceFactory: request.ios == nil ? scenario.makeFactory() : IOSDemoScenario.factory,
            answerTimeout: request.timeout,
            appStartsServiceAtLaunch: request.ios?.scenario.restartAtLaunch == true ? request.ios?.scenario.config : nil
        )
        let plugin: SimulationPlugin
        do {
            plugin = try SimulationPlugin(launcher: launcher, limits: limits)
        } catch {
            return .failure(StartFailure(error: error, stderr: early.lines, stderrNotKept: early.dropped))
        }
        do {
            let sim = try SystemSimulation(options: options, plugin: plugin)
            early.stop()
            return .success(sim)
        } catch {
            plugin.close()  // reaped, with whatever it forked: nothing is left behind
            return .failure(StartFailure(error: error, stderr: early.lines, stderrNotKept: early.dropped))
        }
    }

    /// Shows why the plugin did not start (its stderr first) and the verdict; returns its status.
    static func report(_ failure: StartFailure, _ request: Request) -> Int32 {
        for line in failure.stderr { HostCLI.diagnose(line) }
        notKept(failure.stderrNotKept)
        var verdict = HostCLI.Verdict()
        let kind = HostCLI.Verdict.Kind(failure.error, starting: true)
        verdict.add(
            kind, HostCLI.Verdict.name(of: failure.error, starting: true),
            "the plugin \(request.pluginPath) did not begin the run: \(failure.error)")
        HostCLI.diagnose("demo", "the plugin did not begin the run: \(failure.error)")
        if request.json {
            Console.json(
                [
                    "profile": .string(request.settings.profile.rawValue), "plugin": .string(request.pluginPath),
                    "error": .string(failure.error.description), "verdict": verdict.json,
                ])
        } else {
            HostCLI.Screen.out((verdict.details + [verdict.line]).joined(separator: "\n"))
        }
        return verdict.status
    }

    /// `plugin-host demo: 12,345 more stderr lines from the plugin (1.2 MiB) not kept`, when there were.
    static func notKept(_ dropped: (lines: Int, bytes: Int)) {
        guard dropped.lines > 0 else { return }
        HostCLI.diagnose(
            "demo",
            "\(HostCLI.Verdict.count(dropped.lines, "more stderr line")) from the plugin "
                + "(\(OutputMeter.size(dropped.bytes))) not kept: only the first "
                + "\(OutputMeter.size(PeerLimits.default.maxStderrBytes)) is")
    }
}
