import Foundation
import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// A whole system (service manager, service, listener and plugin) on one virtual
/// timeline, driven step by step from one thread, so that a run is a pure
/// function of its steps.
///
/// Host work runs on a ``ManualExecutor`` that this object drains (each task until
/// it really suspends, ready tasks oldest first); after each host job it waits until every request that job wrote has
/// been answered (the plugin answers everything but `waitForCancel` at once under
/// the virtual clock), so host jobs, requests, replies and events interleave the
/// same way every time. Where the real Rust side's order depends on thread
/// scheduling (``Race``), the ``RacePlan`` decides, and each decision is recorded
/// (``raceRecords``, and a timeline note). Time moves only through
/// ``advance(by:)``, which steps host and plugin clocks together from one due
/// time to the next.
///
/// ```swift
/// let sim = try SystemSimulation(options: .init(plugin: .init(executable: path),
///                                               serviceFactory: { SyncService(runSeconds: 20) }))
/// try sim.host { try? await $0.start(StartKeepaliveConfig()) }
/// try sim.os(OSLaunch.self, .init(identifier: sim.refreshIdentifier))
/// try sim.advance(by: VirtualTime(seconds: 30)!)
/// sim.close()
/// ```
public final class SystemSimulation: @unchecked Sendable {
    // @unchecked: mutable state is confined to the driving thread, except `shared`
    // (behind a Mutex) and `condition`.

    /// What to simulate.
    public struct Options: Sendable {
        /// The plugin to start (`--clock virtual` is required; events are turned on);
        /// not used by a simulation given a ``SimulationPlugin``.
        public var plugin: PluginLauncher
        /// The Rust side's behaviour.
        public var behaviour: Profile
        /// Makes the service for each start.
        public var serviceFactory: @Sendable () -> any BackgroundService
        /// Wall-clock limit for the plugin to answer a request before the run is declared hung.
        public var answerTimeout: Duration
        /// ``answerTimeout`` unless one is given: 10 s.
        public static let defaultAnswerTimeout: Duration = .seconds(10)
        /// How the races the Rust side meets are decided (default: the first-named side).
        public var races: RacePlan
        /// The Rust side's blocking pool size (tokio's default 512).
        public var blockingThreads: Int
        /// When set, the emulated OS expires an app-refresh task this long after its
        /// launch if it is still running, as iOS does (about 30 s). Ignored under
        /// `--os ios`, whose OS keeps its own budgets.
        public var refreshBudget: VirtualTime?
        /// Under `--os ios`: whether the app's own code starts the service at every
        /// launch of the app (with this config), or not (nil, the default: the plugin's
        /// iOS side has no auto-restart, and its users start the service from app code,
        /// so a new process's service manager stays idle). See docs/host.md.
        public var appStartsServiceAtLaunch: StartKeepaliveConfig?
        /// The plugin's `--dispatch` (its arguments must say the same): under `tauri` a host
        /// invoke and an OS event at one instant reach it as one batch (``together(_:params:meeting:during:)``).
        public var dispatch: DispatchMode
        /// Whether ``SystemSimulation/pluginState()`` reads the state of a plugin engine
        /// in this process as a value instead of making the `plugin/state` request (its
        /// id is taken all the same, so every other id is unchanged, and what the
        /// request would have let run first runs). Its requests and answers are then
        /// missing from the timeline (nor do they count towards ``PeerLimits/maxHeldFrames``),
        /// which is why it is off by default: `demo --json` shows every message. The
        /// fuzzer turns it on (`docs/benchmarks.md`).
        public var stateWithoutRequests = false

        /// Creates options.
        public init(
            plugin: PluginLauncher, behaviour: Profile = .seed,
            serviceFactory: @escaping @Sendable () -> any BackgroundService,
            answerTimeout: Duration = defaultAnswerTimeout,
            races: RacePlan = RacePlan(), blockingThreads: Int = BlockingPool.tokioDefault,
            refreshBudget: VirtualTime? = nil, appStartsServiceAtLaunch: StartKeepaliveConfig? = nil,
            dispatch: DispatchMode = .serial
        ) {
            self.dispatch = dispatch
            self.refreshBudget = refreshBudget
            self.appStartsServiceAtLaunch = appStartsServiceAtLaunch
            self.plugin = plugin
            self.behaviour = behaviour
            self.serviceFactory = serviceFactory
            self.answerTimeout = answerTimeout
            self.races = races
            self.blockingThreads = blockingThreads
        }
    }

    struct Shared {
        var timeline: [TimelineEntry] = []
        /// What the invariant checks read from ``timeline``, gathered as it grows.
        var digest = TimelineDigest()
        /// Host requests written whose answer has not arrived yet (`waitForCancel` excluded).
        var inFlight: [RequestID: String] = [:]
        /// Completions of host calls that have arrived, to run between host jobs, in order.
        var deliveries: [@Sendable () -> Void] = []
        var origins: [RequestID: Origin] = [:]
        var origin = Origin.rust
        /// Where ``SystemSimulation/takeEvents()`` goes on from in the timeline.
        var eventsTaken = 0
        /// Bytes of plugin stderr kept in the timeline, and the lines and bytes past
        /// ``PeerLimits/maxStderrBytes`` that were only counted.
        var stderrKept = 0
        var stderrDropped = (lines: 0, bytes: 0)
        /// The time entries are stamped with: the host clock, or during a plugin
        /// time step the time the step goes to (everything in it happens then).
        var stamp = VirtualTime.zero
        /// App processes, the first one first; the last is the current one.
        var processes: [HostAppProcess] = []
        /// Which process wrote each host call.
        var callOwner: [RequestID: Int] = [:]
        var terminations: [AppTermination] = []
        var relaunches: [AppRelaunch] = []
        /// A service was running when a process ended and no process has started one since.
        var serviceMeantToRun = false
        /// The task the OS runs, from its events (``osRunningTask``).
        var osTask: OSTask?
        /// The `invalidate-vs-fire` orders drawn for the action in progress and the ones the
        /// plugin has taken so far (`SystemSimulation+Invalidations.swift`), nil between actions.
        var invalidationsDrawn: (drawn: [Race.Side], taken: [Race.Side])?
        /// Host calls made by a caller blocked on the main thread (`x-mainThreadCaller`) and not
        /// yet answered: while one waits, the app's main thread is blocked.
        var mainCallers: Set<RequestID> = []
        /// Whether the plugin hops to the main queue before answering (`--profile strict`,
        /// `--dispatch tauri`, `--os ios`): only then can a main-thread caller wait for ever.
        var hopsToMain = false
    }

    /// Where every host job runs, one at a time, when the simulation drains it.
    public let executor: ManualExecutor
    /// The host's virtual clock, moved only by ``advance(by:)``.
    public let clock = VirtualHostClock()
    /// The plugin end: owned by this simulation, or shared by one after another.
    public let plugin: SimulationPlugin
    /// The plugin's client, not tied to an app process (probes, OS controls).
    let baseClient: BackgroundServiceClient
    /// The current app process's client.
    public var client: BackgroundServiceClient { currentProcess.client }
    /// The current app process's service manager.
    public var manager: ServiceManager { currentProcess.manager }
    /// The current app process.
    public var currentProcess: HostAppProcess { shared.withLock { $0.processes.last! } }
    let races: SimulationRaces
    private let appCommandSlot: AppCommandSlot
    /// What the plugin said about itself.
    public private(set) var info: Initialize.Result!
    let shared = Mutex(Shared())
    let condition = NSCondition()
    let options: Options
    /// Tasks the OS expired because their budget ran out: identifier and launch time.
    public internal(set) var budgetExpirations: [PluginStateSnapshot.ActiveTask] = []
    /// The plugin's clock as last reported.
    var pluginNow = VirtualTime.zero
    /// The last `plugin/state` answer and its decoding: an answer equal to it is not decoded again.
    var lastPluginState: (raw: JSONValue, state: PluginStateSnapshot)?

    /// Starts the plugin, the manager and a session with events on.
    public convenience init(options: Options) throws(SimulationError) {
        try self.init(options: options, plugin: SimulationPlugin(launcher: options.plugin))
    }

    /// Runs on a plugin that other simulations used before (one at a time): it is
    /// reset first, so the run is the same as against a fresh one. End it with
    /// ``detach()`` to leave the plugin running for the next.
    public init(options: Options, plugin: SimulationPlugin) throws(SimulationError) {
        self.options = options
        self.plugin = plugin
        baseClient = plugin.client
        executor = ManualExecutor()
        let notes = ServiceEventSink()
        let (clock, appCommand) = (self.clock, AppCommandSlot())
        races = SimulationRaces(
            plan: options.races, appCommandDue: { appCommand.time.withLock { $0 } == clock.now },
            decided: { notes.note($0.description) })
        appCommandSlot = appCommand
        notes.noteTarget = { [weak self] in self?.append(.note($0)) }
        try plugin.prepare(answerTimeout: options.answerTimeout)
        plugin.relay.attach(
            tap: { [weak self] in self?.tapped($0) },
            handoff: { [weak self] id, completion in
                if let self { self.arrived(id, completion) } else { completion() }
            })
        info = try call(Initialize.self, .init(events: true), origin: .harness)
        shared.withLock { $0.hopsToMain = info.profile == .strict && options.dispatch == .tauri && info.os == .ios }
        let first = makeProcess(number: 1, cause: .user)
        shared.withLock { $0.processes = [first] }
    }

    /// The refresh task's identifier.
    public var refreshIdentifier: String { info.refreshIdentifier }
    /// The processing task's identifier.
    public var processingIdentifier: String { info.processingIdentifier }
    /// The current virtual time.
    public var now: VirtualTime { clock.now }

    /// Everything that happened so far, in order.
    public var timeline: [TimelineEntry] { shared.withLock { $0.timeline } }

    /// Events received since the last call, in order (and forgets them).
    public func takeEvents() -> [RPCNotification] {
        shared.withLock { s in
            defer { s.eventsTaken = s.timeline.count }
            return s.timeline[min(s.eventsTaken, s.timeline.count)...].compactMap {
                if case .event(let n) = $0.kind { n } else { nil }
            }
        }
    }

    /// Every race decided so far, in order.
    public var raceRecords: [RaceRecord] { races.records }

    /// When the app's next command comes, if it comes at once after what is being done
    /// now (nil: it does not, or nobody knows). A driver that knows its next action sets
    /// it; a run that ends at that instant then races the command (``Race/runEndVsApp``),
    /// which must be run through ``host(_:)``.
    public var appCommandAt: VirtualTime? {
        get { appCommandSlot.time.withLock { $0 } }
        set { appCommandSlot.time.withLock { $0 = newValue } }
    }

    /// Adds a narration line.
    public func note(_ text: String) { append(.note(text)) }

    /// Shuts the plugin down and reaps it, then lets every suspended host task
    /// finish: pending calls fail, sleepers are cancelled, and the executor is
    /// drained, so that no task is left waiting forever.
    @discardableResult
    public func close() -> ExitStatus {
        // The plugin gets as long to end as it gets to answer (it ends at the end of its input).
        let status = plugin.close(grace: options.answerTimeout)
        drainHost()
        plugin.relay.detach()
        return status
    }

    /// Ends the run and leaves the plugin running for the next simulation: pending
    /// calls fail, every suspended host task finishes, and nothing more reaches this one.
    public func detach() {
        plugin.interrupt()
        drainHost()
        plugin.relay.detach()
    }

    /// Lets every host task end: sleepers cancelled, arrived completions run, the executor drained.
    private func drainHost() {
        clock.cancelAllSleepers()
        races.appCommandDone()
        for _ in 0..<100_000 {
            let ready: [@Sendable () -> Void] = shared.withLock { s in
                s.inFlight.removeAll()
                defer { s.deliveries.removeAll() }
                return s.deliveries
            }
            for completion in ready { completion() }
            clock.cancelAllSleepers()
            if ready.isEmpty, !executor.runNext(), !races.releaseOne() { break }
        }
    }
}

/// The time the app's next command comes at, shared with the race arbiter.
final class AppCommandSlot: Sendable {
    let time = Mutex<VirtualTime?>(nil)
}
