import HostSimulation
import PluginHost

/// What kind of problem a failure from the plugin's side is, for a ``HostCLI/Verdict``:
/// the documented exit statuses (``ExitCode``) for `demo` and `explain`.
extension HostCLI.Verdict.Kind {
    /// A call's failure: a plugin that could not be started, or ended before the run
    /// began (`starting`), did not start; one that flooded, went silent past a
    /// timeout, wrote what is not a frame or ended in the middle of the run broke the
    /// transport; an error answer where the run needed a result broke a rule.
    init(_ error: HostError, starting: Bool) {
        switch error.code {
        case .launchFailed: self = .start
        case .pluginExited: self = starting ? .start : .transport
        case .rejected, .rpcError, .invalidResult: self = .rule
        default: self = .transport
        }
    }

    /// A simulation step's failure: unanswered requests are the transport's (silence
    /// past the answer timeout); a host task left stuck or time that does not move on
    /// is a rule broken (the plugin left the system where no answer comes).
    init(_ error: SystemSimulation.SimulationError, starting: Bool) {
        if let host = error.hostError {
            self.init(host, starting: starting)
        } else {
            self = error.code == .hung ? .transport : .rule
        }
    }
}

extension HostCLI.Verdict {
    /// A failure in a word or two, for the verdict line: `flooding`, `silent`, `ended
    /// mid-run`, `protocol error`, `error answer`, ...
    static func name(of error: HostError, starting: Bool) -> String {
        switch error.code {
        case .launchFailed: "could not be started"
        case .pluginExited: starting ? "ended before answering initialize" : "ended mid-run"
        case .timedOut: "no answer in time"
        case .flooding: "flooding"
        case .protocolError: "protocol error"
        case .rejected, .rpcError: "error answer"
        case .invalidResult: "invalid result"
        default: error.code.description
        }
    }

    /// The same for a simulation step's failure.
    static func name(of error: SystemSimulation.SimulationError, starting: Bool) -> String {
        if let host = error.hostError { return name(of: host, starting: starting) }
        switch error.code {
        case .hung: return "no answer in time"
        case .hostTaskStuck: return "a host task stuck"
        case .runaway: return "time did not move on"
        default: return error.code.description
        }
    }
}
