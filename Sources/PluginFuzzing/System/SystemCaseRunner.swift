import Foundation
import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// A plugin for system cases, started on first use and kept for case after case
/// (each simulation resets it); started again after a run that could not be completed.
///
/// Bounded as the plugin level is: every call waits at most ``answerTimeout``; the
/// connection and the simulation's timeline hold at most ``PeerLimits`` (past them the
/// plugin is stopped as flooding); a case still running at the run's
/// ``FuzzDeadline/hardStop`` has its plugin stopped (``watch(_:)``); the plugin's stderr
/// is kept in a ``StderrTail`` for the report when it fails.
final class SystemCaseRunner {
    let launcher: PluginLauncher
    /// Every simulation's ``SystemSimulation/Options/answerTimeout``.
    let answerTimeout: Duration
    /// The run's time limit.
    let deadline: FuzzDeadline
    /// The current plugin's last stderr lines.
    let stderrTail = StderrTail()
    private var plugin: SimulationPlugin?
    /// Whether a simulation has started on the current plugin (it answered `initialize`).
    private(set) var served = false
    /// Every simulation's ``SystemSimulation/Options/stateWithoutRequests``: on, unless a
    /// test compares the two ways.
    let stateWithoutRequests: Bool

    init(
        launcher: PluginLauncher, answerTimeout: Duration, deadline: FuzzDeadline = .none,
        stateWithoutRequests: Bool = true
    ) {
        self.launcher = launcher
        self.answerTimeout = answerTimeout
        self.deadline = deadline
        self.stateWithoutRequests = stateWithoutRequests
    }

    /// The plugin, started if there is none.
    func current() throws(SystemSimulation.SimulationError) -> SimulationPlugin {
        if let plugin { return plugin }
        stderrTail.clear()
        let tail = stderrTail
        let started = try SimulationPlugin(launcher: launcher, stderrLine: { tail.append($0) })
        plugin = started
        served = false
        return started
    }

    /// A simulation on the plugin.
    func simulation(_ options: SystemSimulation.Options) throws(SystemSimulation.SimulationError) -> SystemSimulation {
        let sim = try SystemSimulation(options: options, plugin: try current())
        served = true
        return sim
    }

    /// A watchdog that stops the plugin at the run's hard stop (nil without a time limit):
    /// its calls then fail at once, and the case ends.
    func watch(_ plugin: SimulationPlugin) -> Watchdog? {
        guard let stop = deadline.hardStop else { return nil }
        let seconds = max(0, stop.timeIntervalSinceNow)
        return Watchdog(after: .milliseconds(Int64(seconds * 1000))) { [plugin] in
            plugin.client.connection.close(grace: .zero)
        }
    }

    /// Stops the plugin at once (it failed: no grace); the next simulation starts a new one.
    func restart() {
        plugin?.client.connection.close(grace: .zero)
        plugin = nil
    }

    /// Closes the plugin: its input ends, and it has 2 s to exit.
    func close() {
        plugin?.close()
        plugin = nil
    }

    /// Whether a failure to start a simulation means the plugin did not start: it ended
    /// (or could not be spawned) before it had answered anything.
    func didNotStart(_ error: SystemSimulation.SimulationError) -> Bool {
        guard !served, let code = error.hostError?.code else { return false }
        return code == .pluginExited || code == .launchFailed
    }
}

/// Replaying a system case (`plugin-host replay`): one run on a fresh plugin, with the
/// plugin's failure told apart from what the case shows.
extension SystemCase {
    /// Plays the case once on a fresh plugin, as ``run(plugin:behaviour:stopAt:dispatch:)``
    /// does, every call waiting at most `answerTimeout`; returns the outcome and, when the
    /// run could not be completed, the plugin's failure (with its last stderr lines):
    /// ``PluginFailure/Kind/didNotStart`` when it ended before answering anything.
    public func replay(
        plugin: PluginLauncher, behaviour: Profile, stopAt target: String? = nil,
        dispatch: DispatchMode = .serial, answerTimeout: Duration = SystemSimulation.Options.defaultAnswerTimeout
    ) -> (outcome: Outcome, failure: PluginFailure?) {
        let runner = SystemCaseRunner(launcher: plugin, answerTimeout: answerTimeout)
        let outcome = run(on: runner, behaviour: behaviour, stopAt: target, dispatch: dispatch)
        guard let error = outcome.error else {
            runner.close()
            return (outcome, nil)
        }
        runner.restart()  // stopped, its stderr read to the end
        let failure = PluginFailure(
            kind: outcome.notStarted ? .didNotStart : .misbehaved,
            reason: outcome.notStarted ? "the plugin did not start: \(error)" : error, stderr: runner.stderrTail.lines)
        return (outcome, failure)
    }
}
