import HostProtocol
import HostSimulation
import PluginHost

/// ``SystemAction/together(_:os:invoke:)``: an OS event at the instant of a host invoke.
extension SystemCase {
    /// Plays `during` with the OS's `os` (an expiration of the task running now, or a launch)
    /// held back until the Rust side writes its next `invoke`; the two then reach the plugin
    /// as one batch (``SystemSimulation/together(_:params:meeting:during:)``). Returns the
    /// task whose expiration handler ran, when the expiration's answer has come.
    func perform(
        _ during: SystemAction, with os: SystemAction, meeting invoke: String, on sim: SystemSimulation,
        config: StartKeepaliveConfig
    ) throws(SystemSimulation.SimulationError) -> PluginStateSnapshot.ActiveTask? {
        var running: PluginStateSnapshot.ActiveTask?
        let method: String
        let identifier: String
        if case .together = during {
            // One call is held at a time: a nested together (traces refuse one) is played after.
            _ = try perform(during, on: sim, config: config)
            return try perform(os, on: sim, config: config)
        }
        switch os {
        case .expire:
            running = try sim.pluginState().activeTask
            (method, identifier) = (OSExpire.name, running?.identifier ?? sim.refreshIdentifier)
        case .launch(let kind):
            (method, identifier) = (OSLaunch.name, kind == .refresh ? sim.refreshIdentifier : sim.processingIdentifier)
        default:
            // Only an expiration or a launch is held for a batch; anything else is played after.
            _ = try perform(during, on: sim, config: config)
            return try perform(os, on: sim, config: config)
        }
        let answer = try sim.together(method, params: ["identifier": .string(identifier)], meeting: .method(invoke)) {
            () throws(SystemSimulation.SimulationError) in
            _ = try perform(during, on: sim, config: config)
        }
        if case .expire = os, case .success? = answer { return running }
        return nil
    }
}
