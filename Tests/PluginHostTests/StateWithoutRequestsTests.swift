import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import HostSimulation
@testable import PluginHost

/// `SystemSimulation.Options.stateWithoutRequests`: the built-in engine's state read
/// as a value gives the run the request gives, ids included, with the harness's
/// `plugin/state` round trips left out of the timeline; anything else still asks.
@Suite("plugin/state without requests")
struct StateWithoutRequestsTests {
    static func options(_ launcher: PluginLauncher, direct: Bool) -> SystemSimulation.Options {
        var o = SimulationPluginTests.options(launcher)
        o.stateWithoutRequests = direct
        return o
    }

    /// The harness's `plugin/state` requests in a timeline.
    static func stateRequests(_ sim: SystemSimulation) -> Int {
        sim.timeline.filter {
            if case .request(let r, .harness) = $0.kind { return r.method == PluginStateMethod.name }
            return false
        }.count
    }

    @Test func theEngineInThisProcessIsReadWithoutARoundTrip() async throws {
        let launcher = PluginLauncher.inProcess(arguments: SimulationPluginTests.arguments)
        let (direct, wire) = try await onThread { () throws -> ((String, Int), (String, Int)) in
            func run(_ direct: Bool) throws -> (String, Int) {
                let sim = try SystemSimulation(options: Self.options(launcher, direct: direct))
                defer { sim.close() }
                return (try SimulationPluginTests.play(sim), Self.stateRequests(sim))
            }
            return (try run(true), try run(false))
        }
        #expect(wire.1 > 0, "the harness asks for the state")
        #expect(direct.1 == 0, "\(direct.1) plugin/state request(s) made")
        // The same lines, ids included: the ids the requests would have used were taken.
        #expect(direct.0 == wire.0)
        #expect(direct.0.contains("#12 waitForCancel"), "\(direct.0)")
    }

    /// A plugin process, and an engine whose `plugin/state` a fault replaces, are asked.
    @Test(arguments: [nil, "garbage-on-state", "exit-mid-frame-on-state"])
    func otherwiseTheRequestIsMade(fault: String?) async throws {
        let process = fault == nil
        let launcher =
            process
            ? PluginLauncher(executable: Binaries.plugin, arguments: SimulationPluginTests.arguments)
            : .inProcess(arguments: SimulationPluginTests.arguments, environment: ["BSP_FAULT": fault!])
        let (requests, error) = try await onThread { () throws -> (Int, SystemSimulation.SimulationError?) in
            let sim = try SystemSimulation(
                options: Self.options(launcher, direct: true).withTimeout(process ? .seconds(10) : .seconds(1)))
            defer { sim.close() }
            do throws(SystemSimulation.SimulationError) {
                _ = try sim.pluginState()
                return (Self.stateRequests(sim), nil)
            } catch {
                return (Self.stateRequests(sim), error)
            }
        }
        #expect(requests == 1)
        // The fault's garbage line, or half a frame and the end, is what the request meets; the process answers.
        #expect((error == nil) == process, "\(String(describing: error))")
    }
}

extension SystemSimulation.Options {
    fileprivate func withTimeout(_ timeout: Duration) -> Self {
        var o = self
        o.answerTimeout = timeout
        return o
    }
}
