import HostProtocol
import PluginHost
import Synchronization

/// One system-level case: a scenario and a sequence of actions, played in a
/// fresh simulation, with the invariants checked after every action.
public struct SystemCase: Sendable {
    /// iOS gives an app-refresh task about 30 s; the emulated OS expires it then.
    public static let refreshBudget = VirtualTime(nanoseconds: 30_000_000_000)

    public var scenario: SystemScenario
    public var actions: [SystemAction]

    public init(scenario: SystemScenario, actions: [SystemAction]) {
        self.scenario = scenario
        self.actions = actions
    }

    /// What happened.
    public struct Outcome: Sendable {
        /// Each distinct violation (by signature), with the step after which it first appeared, in step order.
        public var violations: [(step: Int, violation: Violation)]
        /// Timeline lines (time, who, what) per action.
        public var timeline: [[String]]
        /// Why the run could not be completed, if it could not.
        public var error: String?

        /// The signatures found, in order (a run failure counts as one).
        public var signatures: [String] {
            violations.map(\.violation.signature) + (error.map { ["run failed: \($0)"] } ?? [])
        }

        /// The step and violation for a signature.
        public func first(_ signature: String) -> (step: Int, violation: Violation)? {
            violations.first { $0.violation.signature == signature }
        }
    }

    /// Plays the case against a fresh plugin, checking the invariants after every
    /// action; stops early once `target` (a signature) has been seen, if given.
    public func run(plugin: PluginLauncher, behaviour: HostBehaviour, stopAt target: String? = nil) -> Outcome {
        let runner = SystemCaseRunner(launcher: plugin)
        defer { runner.close() }
        return run(on: runner, behaviour: behaviour, stopAt: target)
    }

    /// Plays the case on the runner's plugin, reset first: the same run as against a fresh one.
    func run(on runner: SystemCaseRunner, behaviour: HostBehaviour, stopAt target: String? = nil) -> Outcome {
        var timeline: [[String]] = []
        var violations: [(step: Int, violation: Violation)] = []
        let runs = scenario.runs.map { ServiceBoxed($0.service) }
        let counter = SendableCounter()
        let sim: SystemSimulation
        do {
            // (The refresh budget is the simulation's own under --os manual; under --os ios the OS keeps its own.)
            sim = try runner.simulation(.init(
                plugin: runner.launcher, behaviour: behaviour,
                serviceFactory: { runs[counter.next() % runs.count].service },
                scheduleSeed: scenario.scheduleSeed, refreshBudget: SystemCase.refreshBudget,
                appStartsServiceAtLaunch: scenario.restartAtLaunch ? scenario.config : nil))
        } catch {
            return Outcome(violations: [], timeline: [], error: error.description)
        }
        let ios = sim.info.os == .ios
        defer { sim.detach() }
        let config = scenario.config
        var checker = InvariantChecker()
        var seen = sim.timeline.count
        for (i, action) in actions.enumerated() {
            do {
                let budgetBefore = sim.budgetExpirations.count
                let relaunchesBefore = sim.relaunches.count
                let expired = [try perform(action, on: sim, config: config)].compactMap { $0 } + sim.budgetExpirations[budgetBefore...]
                let state = try sim.pluginState()
                let status = try sim.hostValue { await $0.status }
                let waits = sim.liveCancelWaits
                checker.process = sim.processes.count
                var found = checker.check(
                    plugin: state, status: status, hostWaits: waits, serviceEvents: sim.serviceEventsSoFar,
                    expired: expired)
                if ios {
                    let relaunches = Array(sim.relaunches.dropFirst(relaunchesBefore))
                    let processes = sim.processes
                    found += checker.checkIOS(plugin: state, lifecycle: .init(
                        deadProcessCalls: sim.deadProcessCalls, relaunches: relaunches,
                        startedARun: Dictionary(uniqueKeysWithValues: processes.map { ($0.number, $0.startedARun) }),
                        process: processes.count))
                }
                let all = sim.timeline
                timeline.append(Self.recorded(all[seen...]))
                seen = all.count
                for v in found.sorted(by: { $0.invariant < $1.invariant }) where !violations.contains(where: { $0.violation.signature == v.signature }) {
                    violations.append((i, v))
                }
                if let target, violations.contains(where: { $0.violation.signature == target }) { break }
            } catch {
                timeline.append(Self.recorded(sim.timeline[seen...]))
                return Outcome(violations: violations, timeline: timeline, error: error.description)
            }
        }
        return Outcome(violations: violations, timeline: timeline, error: nil)
    }

    /// Lines that are a function of the steps: protocol traffic, events and the
    /// manager's steps (plugin stderr arrives on its own thread, at no fixed place).
    static func recorded(_ entries: ArraySlice<TimelineEntry>) -> [String] {
        entries.filter { e in
            if case .stderr = e.kind { return false }
            return e.isVisible
        }.map(line)
    }

    static func line(_ e: TimelineEntry) -> String {
        let (who, what) = TimelineRenderer.describe(e.kind)
        return "\(TimelineRenderer.clock(e.time)) \(who): \(what)"
    }

    /// Performs one action; returns the task whose expiration handler the action ran.
    private func perform(_ action: SystemAction, on sim: SystemSimulation, config: StartKeepaliveConfig) throws(SystemSimulation.SimulationError) -> PluginStateSnapshot.ActiveTask? {
        switch action {
        case .start:
            try sim.host { try? await $0.start(config) }
        case .stop:
            try sim.host { try? await $0.stop() }
        case .launch(let kind):
            try sim.os(OSLaunch.self, .init(identifier: kind == .refresh ? sim.refreshIdentifier : sim.processingIdentifier))
        case .expire:
            let running = try sim.pluginState().activeTask
            if case .success = try sim.os(OSExpire.self, .init(identifier: running?.identifier ?? sim.refreshIdentifier)) { return running }
        case .advance(let duration):
            try sim.advance(by: duration)
        case .conditions(let params):
            try sim.os(OSSetConditions.self, params)
        case .iosConditions(let params):
            try sim.os(method: OSSetConditions.name, params: params.json)
        case .terminate(let reason):
            try sim.os(OSTerminate.self, .init(reason: reason))
        case .openApp:
            try sim.os(OSOpenApp.self, EmptyParams())
        case .policy(let update):
            try sim.os(OSSetPolicy.self, update)
        }
        return nil
    }

}

/// A service in a box that is Sendable by construction.
struct ServiceBoxed: Sendable {
    let service: any BackgroundService
    init(_ s: any BackgroundService) { service = s }
}

/// A thread-safe counter.
final class SendableCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { v in
            defer { v += 1 }
            return v
        }
    }
}

/// A plugin for system cases, started on first use and kept for case after case
/// (each simulation resets it); started again after a run that could not be completed.
final class SystemCaseRunner {
    let launcher: PluginLauncher
    private var plugin: SimulationPlugin?

    init(launcher: PluginLauncher) { self.launcher = launcher }

    /// A simulation on the plugin.
    func simulation(_ options: SystemSimulation.Options) throws(SystemSimulation.SimulationError) -> SystemSimulation {
        if plugin == nil { plugin = try SimulationPlugin(launcher: launcher) }
        return try SystemSimulation(options: options, plugin: plugin!)
    }

    /// Closes the plugin; the next simulation starts a new one.
    func restart() {
        plugin?.close()
        plugin = nil
    }

    func close() { restart() }
}
