import Foundation
import HostProtocol
import Synchronization

/// A whole system (service manager, service, listener and plugin) on one virtual
/// timeline, driven step by step from one thread, so that a run is a pure
/// function of its steps.
///
/// Host work runs on a ``ManualExecutor`` that this object drains; after each
/// host job it waits until every request that job wrote has been answered (the
/// plugin answers everything but `waitForCancel` at once under the virtual
/// clock), so host jobs, requests, replies and events interleave the same way
/// every time. Time moves only through ``advance(by:)``, which steps host and
/// plugin clocks together from one due time to the next.
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
        /// The plugin to start (`--clock virtual` is required; events are turned on).
        public var plugin: PluginProcess.Options
        /// The Rust side's behaviour.
        public var behaviour: HostBehaviour
        /// Makes the service for each start.
        public var serviceFactory: @Sendable () -> any BackgroundService
        /// Wall-clock limit for the plugin to answer a request before the run is declared hung.
        public var answerTimeout: Duration
        /// The order host jobs run in: nil for oldest first, else drawn from this seed.
        public var scheduleSeed: UInt64?
        /// When set, the emulated OS expires an app-refresh task this long after its
        /// launch if it is still running, as iOS does (about 30 s).
        public var refreshBudget: VirtualTime?

        /// Creates options.
        public init(plugin: PluginProcess.Options, behaviour: HostBehaviour = .seed, serviceFactory: @escaping @Sendable () -> any BackgroundService, answerTimeout: Duration = .seconds(10), scheduleSeed: UInt64? = nil, refreshBudget: VirtualTime? = nil) {
            self.refreshBudget = refreshBudget
            self.plugin = plugin
            self.behaviour = behaviour
            self.serviceFactory = serviceFactory
            self.answerTimeout = answerTimeout
            self.scheduleSeed = scheduleSeed
        }
    }

    /// Why a simulation step failed.
    public enum SimulationError: Error, CustomStringConvertible {
        /// The plugin left requests unanswered beyond the answer timeout.
        case hung([String])
        /// A call failed.
        case host(HostError)

        public var description: String {
            switch self {
            case .hung(let methods): "the plugin did not answer \(methods.joined(separator: ", ")) in time"
            case .host(let e): e.description
            }
        }
    }

    private struct Shared {
        var timeline: [TimelineEntry] = []
        /// Host requests written whose answer has not arrived yet (`waitForCancel` excluded).
        var inFlight: [RequestID: String] = [:]
        /// Completions of host calls that have arrived, to run between host jobs, in order.
        var deliveries: [@Sendable () -> Void] = []
        var origins: [RequestID: Origin] = [:]
        var origin = Origin.rust
        var events: [RPCNotification] = []
        /// The time entries are stamped with: the host clock, or during a plugin
        /// time step the time the step goes to (everything in it happens then).
        var stamp = VirtualTime.zero
    }

    public let executor: ManualExecutor
    public let clock = VirtualHostClock()
    public let client: BackgroundServiceClient
    public let manager: ServiceManager
    /// What the plugin said about itself.
    public private(set) var info: Initialize.Result!
    private let shared = Mutex(Shared())
    private let condition = NSCondition()
    let options: Options
    /// Tasks the OS expired because their budget ran out: identifier and launch time.
    public internal(set) var budgetExpirations: [PluginStateSnapshot.ActiveTask] = []
    /// The plugin's clock as last reported.
    private(set) var pluginNow = VirtualTime.zero

    /// Starts the plugin, the manager and a session with events on.
    public init(options: Options) throws(SimulationError) {
        self.options = options
        executor = ManualExecutor(scheduleSeed: options.scheduleSeed)
        let relay = TapRelay()
        do {
            client = try BackgroundServiceClient(
                plugin: options.plugin,
                options: PluginConnection.Options(
                    tap: { relay.forward($0) }, stderrLine: { relay.forward(.stderr($0)) },
                    completionHandoff: { relay.handoff($0, $1) }))
        } catch {
            throw .host(error)
        }
        let clock = self.clock
        let executor = self.executor
        let events = Mutex<[ServiceEvent]>([])
        _ = events
        let sink = ServiceEventSink()
        manager = ServiceManager(
            client: client, factory: options.serviceFactory,
            configuration: .init(
                behaviour: options.behaviour, clock: clock, executor: executor,
                onEvent: { sink.forward($0) }, log: { sink.log($0) }))
        relay.target = { [weak self] in self?.tapped($0) }
        relay.handoffTarget = { [weak self] id, completion in
            if let self { self.arrived(id, completion) } else { completion() }
        }
        sink.target = { [weak self] in self?.append(.service($0)) }
        sink.logTarget = { [weak self] in self?.append(.note("log: \($0)")) }
        info = try call(Initialize.self, .init(events: true), origin: .harness)
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
            defer { s.events.removeAll() }
            return s.events
        }
    }

    /// The service manager's steps so far, in order.
    public var serviceEventsSoFar: [ServiceEvent] {
        shared.withLock { $0.timeline.compactMap { if case .service(let e) = $0.kind { e } else { nil } } }
    }

    /// Adds a narration line.
    public func note(_ text: String) { append(.note(text)) }

    // MARK: - Steps

    /// Runs `action` as a host task (on the simulation's executor) until the system is idle.
    public func host(_ action: @escaping @Sendable (ServiceManager) async -> Void) throws(SimulationError) {
        let manager = self.manager
        Task(executorPreference: executor) { await action(manager) }
        try runUntilIdle()
    }

    /// Runs `body` as a host task and returns its result once the system is idle.
    public func hostValue<T: Sendable>(_ body: @escaping @Sendable (ServiceManager) async -> T) throws(SimulationError) -> T {
        let box = Mutex<T?>(nil)
        let manager = self.manager
        Task(executorPreference: executor) {
            let value = await body(manager)
            box.withLock { $0 = value }
        }
        try runUntilIdle()
        guard let value = box.withLock({ $0 }) else { throw .hung(["a host task did not finish"]) }
        return value
    }

    /// A request made by the harness or the OS, answered before returning; the
    /// host then runs until idle.
    public func call<M: RPCMethod>(_: M.Type, _ params: M.Params, origin: Origin = .os) throws(SimulationError) -> M.Result {
        let raw = try callRaw(method: M.name, params: PluginConnection.encode(params), origin: origin)
        do {
            return try PluginConnection.decode(M.self, raw)
        } catch {
            throw .host(error)
        }
    }

    /// An `os/` control; `-32002`-style refusals come back as `.failure`.
    @discardableResult
    public func os<M: RPCMethod>(_ method: M.Type, _ params: M.Params) throws(SimulationError) -> Result<M.Result, HostError> {
        do {
            return .success(try call(method, params, origin: .os))
        } catch {
            if case .host(let e) = error, e.code != nil { return .failure(e) }
            throw error
        }
    }

    /// A raw request (any method, any params).
    public func callRaw(method: String, params: JSONValue?, origin: Origin) throws(SimulationError) -> JSONValue {
        shared.withLock { $0.origin = origin }
        let outcome = Result { () throws(HostError) in
            try client.connection.callBlocking(method: method, params: params, timeout: options.answerTimeout)
        }
        shared.withLock { $0.origin = .rust }
        let result: JSONValue
        do {
            result = try outcome.get()
        } catch {
            try runUntilIdle()
            throw .host(error)
        }
        if method == OSAdvanceTime.name, let now = try? OSAdvanceTime.Result(json: result).now { pluginNow = now }
        try runUntilIdle()
        return result
    }

    /// The plugin's state snapshot (not shown in timelines).
    public func pluginState() throws(SimulationError) -> PluginStateSnapshot {
        try call(PluginStateMethod.self, EmptyParams(), origin: .harness)
    }

    /// Runs host jobs until none is runnable and no request is unanswered.
    ///
    /// Between two jobs it waits until every answer to what the last job wrote has
    /// arrived, then runs those completions in arrival order (each resumes its task,
    /// which queues its next job): the order of jobs depends on nothing but the
    /// order of messages.
    public func runUntilIdle() throws(SimulationError) {
        while true {
            try waitUntilAnswered()
            let ready: [@Sendable () -> Void] = shared.withLock { s in
                defer { s.deliveries.removeAll() }
                return s.deliveries
            }
            for completion in ready { completion() }
            if ready.isEmpty, !executor.runNext() { return }
        }
    }

    private func waitUntilAnswered() throws(SimulationError) {
        let deadline = Date().addingTimeInterval(Double(options.answerTimeout.components.seconds) + 1)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let outstanding = shared.withLock { Array($0.inFlight.values) }
            if outstanding.isEmpty { return }
            if !condition.wait(until: deadline) { throw .hung(outstanding.sorted()) }
        }
    }

    /// A call's answer arrived: calls made by the driver itself (it is blocked waiting)
    /// complete at once; host calls wait for the driver.
    private func arrived(_ id: RequestID, _ completion: @escaping @Sendable () -> Void) {
        // A call that failed before it was written has no recorded origin: it belongs
        // to whoever is calling now.
        let origin = shared.withLock { $0.origins.removeValue(forKey: id) ?? $0.origin }
        if origin == .os || origin == .harness {
            completion()
            return
        }
        condition.lock()
        shared.withLock { s in
            s.inFlight.removeValue(forKey: id)
            s.deliveries.append(completion)
        }
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Recording

    private func tapped(_ event: ConnectionEvent) {
        switch event {
        case .sentRequest(let r):
            shared.withLock { s in
                s.origins[r.id] = s.origin
                // Only the host's own calls are waited for between jobs; the driver's calls block it.
                if s.origin == .rust, r.method != WaitForCancel.name { s.inFlight[r.id] = r.method }
                // A time step's own request is stamped when it is sent; what it causes, when it happens.
                let time = r.method == OSAdvanceTime.name ? clock.now : max(s.stamp, clock.now)
                s.timeline.append(TimelineEntry(time: time, kind: .request(r, s.origin)))
            }
        case .receivedResponse(let r):
            shared.withLock { s in
                let origin = s.origins[r.id] ?? .rust
                s.timeline.append(TimelineEntry(time: max(s.stamp, clock.now), kind: .response(r, origin)))
            }
        case .receivedNotification(let n):
            shared.withLock { s in
                s.events.append(n)
                s.timeline.append(TimelineEntry(time: max(s.stamp, clock.now), kind: .event(n)))
            }
        case .settled:
            break
        case .stderr(let line):
            append(.stderr(line))
        case .closed, .protocolError:
            condition.lock()
            condition.broadcast()
            condition.unlock()
            if case .protocolError(let why) = event { append(.note("protocol error: \(why)")) }
        case .sentNotification, .receivedOther:
            break
        }
    }

    private func append(_ kind: TimelineEntry.Kind) {
        shared.withLock { $0.timeline.append(TimelineEntry(time: max($0.stamp, clock.now), kind: kind)) }
    }

    /// Stamps what follows with `time` (during a plugin time step).
    func stampTimeline(_ time: VirtualTime) {
        shared.withLock { $0.stamp = time }
    }

    /// Shuts the plugin down and reaps it, then lets every suspended host task
    /// finish: pending calls fail, sleepers are cancelled, and the executor is
    /// drained, so that no task is left waiting forever.
    @discardableResult
    public func close() -> ExitStatus {
        let status = client.connection.close(grace: .seconds(2))
        clock.cancelAllSleepers()
        for _ in 0..<100_000 {
            let ready: [@Sendable () -> Void] = shared.withLock { s in
                s.inFlight.removeAll()
                defer { s.deliveries.removeAll() }
                return s.deliveries
            }
            for completion in ready { completion() }
            clock.cancelAllSleepers()
            if ready.isEmpty, !executor.runNext() { break }
        }
        return status
    }
}

/// Forwards connection events to the simulation once it exists.
final class TapRelay: @unchecked Sendable {
    // @unchecked: the targets are set once, before any event can arrive that matters.
    var target: (@Sendable (ConnectionEvent) -> Void)?
    var handoffTarget: (@Sendable (RequestID, @escaping @Sendable () -> Void) -> Void)?
    func forward(_ event: ConnectionEvent) { target?(event) }
    func handoff(_ id: RequestID, _ completion: @escaping @Sendable () -> Void) {
        if let handoffTarget { handoffTarget(id, completion) } else { completion() }
    }
}

/// Forwards service events to the simulation once it exists.
final class ServiceEventSink: @unchecked Sendable {
    // @unchecked: targets are set once, during the simulation's init.
    var target: (@Sendable (ServiceEvent) -> Void)?
    var logTarget: (@Sendable (String) -> Void)?
    func forward(_ event: ServiceEvent) { target?(event) }
    func log(_ line: String) { logTarget?(line) }
}
