import HostProtocol
import HostSimulation
import PluginHost
import RustSide
import Synchronization

/// One system-level case: a scenario and a sequence of actions, played in a
/// fresh simulation, with the invariants checked after every action.
public struct SystemCase: Sendable {
    /// iOS gives an app-refresh task about 30 s; the emulated OS expires it then.
    public static let refreshBudget = VirtualTime(nanoseconds: 30_000_000_000)

    /// Services, config, pool and race orders.
    public var scenario: SystemScenario
    /// What the app and the OS do, in order.
    public var actions: [SystemAction]

    /// A case.
    public init(scenario: SystemScenario, actions: [SystemAction]) {
        self.scenario = scenario
        self.actions = actions
    }

    /// What happened.
    public struct Outcome: Sendable {
        /// Each distinct violation (by signature), with the step after which it first appeared, in step order.
        public var violations: [(step: Int, violation: Violation)]
        /// The recorded timeline entries of each action (``SystemCase/recorded(_:)``, copied:
        /// a slice would keep the simulation's whole timeline shared, and its next append
        /// would copy it all); ``timeline`` renders them.
        var timelineEntries: [[TimelineEntry]] = []
        /// Timeline lines (time, who, what) per action, rendered when asked: a case's lines
        /// are read for a finding's trace and by `replay`, not for every case played
        /// (rendering them after every step was 13% of a step's instructions).
        public var timeline: [[String]] { timelineEntries.map { $0.map(SystemCase.line) } }
        /// How many actions were played (the count of ``timeline``).
        public var steps: Int { timelineEntries.count }
        /// The races decided during each action, in order.
        public var races: [[RaceRecord]] = []
        /// Which of the scenario's runs each start during each action got.
        public var services: [[Int]] = []
        /// Why the run could not be completed, if it could not: the plugin failed (it is
        /// not a finding; the fuzzer stops and reports it).
        public var error: String?
        /// With ``error``: the plugin did not start (it ended, or could not be spawned,
        /// before it answered anything).
        public var notStarted = false
        /// How much virtual time the run covered.
        public var simulated = VirtualTime.zero
        /// The coverage point of each action played (``SystemCase/coveragePoint(from:kind:to:)``),
        /// when the run was asked for them: what guided search keeps a case for.
        var coverage: [UInt64] = []

        /// Every race decided, in order.
        public var allRaces: [RaceRecord] { races.flatMap { $0 } }

        /// The signatures found, in order (a run that failed has none: its case could not be judged).
        public var signatures: [String] {
            error == nil ? violations.map(\.violation.signature) : []
        }

        /// The step and violation for a signature.
        public func first(_ signature: String) -> (step: Int, violation: Violation)? {
            violations.first { $0.violation.signature == signature }
        }
    }

    /// Plays the case against a fresh plugin, checking the invariants after every
    /// action; stops early once `target` (a signature) has been seen, if given.
    /// `dispatch`: the plugin's `--dispatch` (the launcher's arguments must say the same).
    /// `answerTimeout`: how long one call may wait for the plugin's answer before the run ends
    /// with the plugin failing.
    public func run(
        plugin: PluginLauncher, behaviour: Profile, stopAt target: String? = nil,
        dispatch: DispatchMode = .serial, answerTimeout: Duration = SystemSimulation.Options.defaultAnswerTimeout
    ) -> Outcome {
        let runner = SystemCaseRunner(launcher: plugin, answerTimeout: answerTimeout)
        defer { runner.close() }
        return run(on: runner, behaviour: behaviour, stopAt: target, dispatch: dispatch)
    }

    /// Plays the case on the runner's plugin, reset first: the same run as against a fresh
    /// one. At the run's hard stop the plugin is stopped and the outcome says so.
    /// `coverage`: record each action's coverage point (guided search).
    func run(
        on runner: SystemCaseRunner, behaviour: Profile, stopAt target: String? = nil,
        dispatch: DispatchMode = .serial, coverage: Bool = false
    ) -> Outcome {
        var outcome = Outcome(violations: [])
        let plugin: SimulationPlugin
        do throws(SystemSimulation.SimulationError) {
            plugin = try runner.current()
        } catch {
            outcome.error = error.description
            outcome.notStarted = true
            return outcome
        }
        let watchdog = runner.watch(plugin)
        play(on: runner, behaviour: behaviour, stopAt: target, dispatch: dispatch, coverage: coverage, into: &outcome)
        if watchdog?.finish() == true {
            outcome.notStarted = false
            outcome.error =
                "the plugin had not finished the case in progress when the run's time (--time, plus "
                + "\(Int(FuzzDeadline.grace)) s for a case in progress) ran out"
        }
        return outcome
    }

    private func play(
        on runner: SystemCaseRunner, behaviour: Profile, stopAt target: String?, dispatch: DispatchMode,
        coverage: Bool, into outcome: inout Outcome
    ) {
        let runs = scenario.runs.map { ServiceBoxed($0.service) }
        let handedOut = Mutex<[Int]>([])
        let scenario = self.scenario
        let sim: SystemSimulation
        do throws(SystemSimulation.SimulationError) {
            // (The refresh budget is the simulation's own under --os manual; under --os ios the OS keeps its own.)
            var options = SystemSimulation.Options(
                plugin: runner.launcher, behaviour: behaviour,
                serviceFactory: {
                    let index = handedOut.withLock { list in
                        list.append(scenario.runIndex(start: list.count))
                        return list[list.count - 1]
                    }
                    return runs[index].service
                },
                answerTimeout: runner.answerTimeout, races: scenario.races,
                blockingThreads: scenario.blockingThreads,
                refreshBudget: SystemCase.refreshBudget,
                appStartsServiceAtLaunch: scenario.restartAtLaunch ? scenario.config : nil, dispatch: dispatch)
            // The built-in engine's state as a value: the lines recorded leave the harness's requests out anyway.
            options.stateWithoutRequests = runner.stateWithoutRequests
            sim = try runner.simulation(options)
        } catch {
            outcome.error = error.description
            outcome.notStarted = runner.didNotStart(error)
            return
        }
        let ios = sim.info.os == .ios
        let startedAt = sim.now
        defer { sim.detach() }
        let config = scenario.config
        var checker = InvariantChecker()
        var abstract: UInt64 = 0
        var seen = (timeline: sim.timeline.count, races: sim.raceRecords.count, services: 0)
        func record() {
            outcome.simulated = VirtualTime(nanoseconds: sim.now.nanoseconds - startedAt.nanoseconds)
            let (all, races, services) = (sim.timeline, sim.raceRecords, handedOut.withLock { $0 })
            if outcome.error == nil, let broken = Self.protocolError(in: all[seen.timeline...]) {
                outcome.error = "the plugin broke the protocol: \(broken)"
            }
            outcome.timelineEntries.append(Self.recorded(all[seen.timeline...]))
            outcome.races.append(Array(races[seen.races...]))
            outcome.services.append(Array(services[seen.services...]))
            seen = (all.count, races.count, services.count)
        }
        for (i, drawn) in actions.enumerated() {
            do throws(SystemSimulation.SimulationError) {
                let action = try resolved(drawn, on: sim)
                // A run that ends as this action ends races the app's next command, if it is one.
                let next = i + 1 < actions.count ? actions[i + 1] : nil
                sim.appCommandAt = next?.isAppCommand == true ? action.end(from: sim.now) : nil
                let budgetBefore = sim.budgetExpirations.count
                let relaunchesBefore = sim.relaunches.count
                try sim.installInvalidations()
                let performed = try perform(action, on: sim, config: config)
                try sim.settleInvalidations()
                let expired = [performed].compactMap { $0 } + sim.budgetExpirations[budgetBefore...]
                let state = try sim.pluginState()
                let status = try sim.hostValue { await $0.status }
                let bridge = sim.manager.bridgeSnapshot
                if coverage {
                    let after = Self.abstractState(plugin: state, status: status, bridge: bridge)
                    outcome.coverage.append(Self.coveragePoint(from: abstract, kind: .init(drawn), to: after))
                    abstract = after
                }
                checker.process = sim.processes.count
                var found = checker.check(
                    plugin: state, status: status, bridge: bridge,
                    serviceEvents: sim.serviceEventsSoFar, expired: expired, pluginReports: sim.pluginReportsSoFar,
                    osRunning: sim.osRunningTask)
                if ios {
                    let kept = sim.raceRecords.filter { $0.race == .invalidateVsFire && $0.first == .second }.count
                    found += checker.staleTimers(sim.safetyTimerEventsSoFar, notRemoved: kept)
                    let relaunches = Array(sim.relaunches.dropFirst(relaunchesBefore))
                    let processes = sim.processes
                    let started = Dictionary(uniqueKeysWithValues: processes.map { ($0.number, $0.startedARun) })
                    found += checker.checkIOS(
                        plugin: state,
                        lifecycle: .init(
                            deadProcessCalls: sim.deadProcessCalls, relaunches: relaunches, startedARun: started,
                            process: processes.count))
                    found += checker.appStates(
                        sim.timeline, state: state.ios?.appState, timePassing: action.isTimePassing,
                        forcedLaunch: action.isForcedLaunch)
                }
                record()
                if outcome.error != nil { return }
                for v in found.sorted(by: { $0.invariant < $1.invariant })
                where !outcome.violations.contains(where: { $0.violation.signature == v.signature }) {
                    outcome.violations.append((i, v))
                }
                if let target, outcome.violations.contains(where: { $0.violation.signature == target }) { break }
            } catch {
                record()
                if outcome.error == nil { outcome.error = error.description }
                return
            }
        }
    }

    /// The first protocol error the connection noted (junk, a response nobody waits
    /// for, a request from the plugin, flooding): the plugin broke the transport.
    static func protocolError(in entries: ArraySlice<TimelineEntry>) -> String? {
        for e in entries {
            if case .protocolError(let why) = e.kind { return why }
        }
        return nil
    }

    /// The entries that are a function of the steps, the ones a trace records: protocol
    /// traffic, events and the manager's steps (plugin stderr arrives on its own thread, at
    /// no fixed place; the harness's hidden requests are not shown).
    static func recorded(_ entries: ArraySlice<TimelineEntry>) -> [TimelineEntry] {
        entries.filter { e in
            if case .stderr = e.kind { return false }
            return e.isVisible
        }
    }

    static func line(_ e: TimelineEntry) -> String {
        let (who, what) = TimelineRenderer.describe(e.kind)
        return "\(TimelineRenderer.clock(e.time)) \(who): \(what)"
    }

    /// Performs one action; returns the task whose expiration handler the action ran.
    func perform(
        _ action: SystemAction, on sim: SystemSimulation, config: StartKeepaliveConfig
    ) throws(SystemSimulation.SimulationError) -> PluginStateSnapshot.ActiveTask? {
        switch action {
        case .start:
            try sim.host { try? await $0.start(config) }
        case .stop:
            try sim.host { try? await $0.stop() }
        case .launch(let kind):
            try sim.os(
                OSLaunch.self, .init(identifier: kind == .refresh ? sim.refreshIdentifier : sim.processingIdentifier))
        case .expire:
            let running = try sim.pluginState().activeTask
            if case .success = try sim.os(
                OSExpire.self, .init(identifier: running?.identifier ?? sim.refreshIdentifier))
            {
                return running
            }
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
        case .together(let during, let os, let invoke):
            return try perform(during, with: os, meeting: invoke, on: sim, config: config)
        case .webviewCreated:
            try sim.os(OSWebviewCreated.self, EmptyParams())
        case .blockMain(let duration):
            try sim.os(OSBlockMain.self, .init(seconds: duration.seconds))
        case .onMainThread(let command):
            let manager = sim.manager
            manager.commandFromMainThread([StartKeepalive.name, StopKeepalive.name])
            defer { manager.mainThreadCommandReturned() }
            return try perform(command, on: sim, config: config)
        case .maxConcurrentTasks(let limit):
            try sim.os(OSSetPolicy.self, .init(maxConcurrentTasks: .some(limit)))
        case .sendToBackground:
            try sim.os(OSSendToBackground.self, EmptyParams())
        case .advanceToNextDeadline:
            return try perform(resolved(action, on: sim), on: sim, config: config)
        }
        return nil
    }

}

/// A service in a box that is Sendable by construction.
struct ServiceBoxed: Sendable {
    let service: any BackgroundService
    init(_ s: any BackgroundService) { service = s }
}
