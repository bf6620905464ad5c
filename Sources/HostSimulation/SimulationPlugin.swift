import HostProtocol
import PluginHost
import Synchronization

/// The plugin end of simulations: one connection to one plugin (a process or the
/// engine in this process), reused by one simulation after another.
///
/// Every simulation after the first starts from `plugin/reset`, with request ids
/// from 1 again, so that it runs exactly as it would against a fresh plugin: what
/// lets the system fuzzer run case after case, and shrink, without a new process
/// each time.
///
/// ```swift
/// let plugin = try SimulationPlugin(launcher: .init(executable: path, arguments: ["--clock", "virtual"]))
/// for scenario in scenarios {
///     let sim = try SystemSimulation(options: options, plugin: plugin)
///     try scenario.play(on: sim)
///     sim.detach()
/// }
/// plugin.close()
/// ```
public final class SimulationPlugin: Sendable {
    /// The client the simulations' service managers use.
    public let client: BackgroundServiceClient
    /// The connection the client calls through: the core one, wrapped for simulations.
    let connection: SimulationConnection
    let relay = TapRelay()
    private let simulations = Mutex(0)

    /// What the simulations hold from the plugin (their timelines), and what the
    /// connection does.
    public let limits: PeerLimits

    /// Starts the plugin; what crosses the connection goes to the simulation attached.
    /// The plugin's stderr lines go to the simulation's timeline and to `stderrLine`
    /// (by default nowhere else), which sees them from the start, before any simulation.
    public init(
        launcher: PluginLauncher, limits: PeerLimits = .default,
        stderrLine: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SystemSimulation.SimulationError) {
        let relay = self.relay
        self.limits = limits
        do {
            var options = PluginConnection.Options(
                tap: { relay.forward($0) }, stderrLine: stderrLine, notificationBuffer: .bufferingNewest(0),
                // A protocol error goes into the timeline (the tap), not to stderr.
                log: { _ in }, limits: limits)
            options.frameBytes = { relay.frameRead($0) }
            connection = SimulationConnection(
                wrapping: try PluginConnection(launcher: launcher, options: options),
                completionHandoff: { relay.handoff($0, $1) })
            client = BackgroundServiceClient(connection: connection)
        } catch {
            throw .host(error)
        }
    }

    /// Readies the plugin for a new simulation: from the second on, calls are let
    /// through again, the plugin is reset, and request ids start from 1.
    func prepare(answerTimeout: Duration) throws(SystemSimulation.SimulationError) {
        let earlier = simulations.withLock { n in
            defer { n += 1 }
            return n
        }
        guard earlier > 0 else { return }
        connection.resumeCalls()
        // The reset answers, before its own answer, the invokes the last simulation left
        // (a body parked on a blocked main thread: `reset`); their ids are still known to
        // the connection until `restartIDs()` below, so those late answers are not strays.
        do {
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: answerTimeout)
        } catch {
            throw .host(error)
        }
        connection.restartIDs()
    }

    /// Fails every call still waiting (their tasks end) and every new one, until the next simulation.
    func interrupt() {
        connection.interruptCalls(with: .closed)
    }

    /// Closes the plugin (its input ends, it has `grace` to end on its own); returns how it ended.
    @discardableResult
    public func close(grace: Duration = .seconds(2)) -> ExitStatus {
        connection.close(grace: grace)
    }
}
