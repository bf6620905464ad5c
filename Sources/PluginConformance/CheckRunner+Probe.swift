import HostProtocol
import PluginHost

/// Before a check that needs an extension: does the plugin offer it?
///
/// A plugin may do without an extension (`os/submit`, `plugin/dispatchSchedule`):
/// a check that needs one is skipped, never failed. Three signs say that the plugin
/// does not offer it: it answers the method with -32601 (seen while the check runs),
/// it refuses the check's flags (exit status 64, a usage error, before answering
/// anything: a plugin without `--dispatch tauri`), or its `rpc.discover` answer
/// lists methods without it. The last two are probed in a process of their own,
/// started as the check's would be, before the check runs.
extension CheckRunner {
    /// What the probe found.
    enum Probe {
        /// Run the check (the extension is offered, or nothing says it is not).
        case run
        /// Skip the check: how the plugin shows it does not offer the extension.
        case notOffered(String)
        /// The plugin broke the transport while probed: the check fails with this.
        case failed(Run)
    }

    /// The id of the probe's `rpc.discover` request.
    static let probeID = "conformance-discover"

    /// Probes for the extensions `check` needs (`rpc.discover` itself excepted).
    func probe(_ check: ConformanceCheck, profile: Profile) -> Probe {
        let wanted = check.requires.filter { $0 != RPCDiscover.name }
        guard !wanted.isEmpty, check.infoPlist == nil else { return .run }
        let pipe: PluginPipe
        do {
            (pipe, _) = try start(check, profile: profile)
        } catch {
            return .failed(.failedToStart(error.description, steps: check.script(profile).count))
        }
        var session = ExchangeSession(check: check, pipe: pipe, timeout: plugin.timeout, limits: plugin.limits)
        let discover = #"{"jsonrpc":"2.0","id":"\#(Self.probeID)","method":"\#(RPCDiscover.name)"}"#
        let result = session.play(.send(discover, expect: []), barrierNumber: 0)
        let status = pipe.stop()
        if result.note != nil {
            if status == .exited(64), result.frames.isEmpty {
                return .notOffered(
                    "\(wanted.joined(separator: ", ")): the plugin exited with status 64 (a usage error) when "
                        + "started with \(check.flags.joined(separator: " "))")
            }
            guard result.breach != nil else { return .run }
            var run = Run.failedToStart(
                "before the check, asking rpc.discover for \(wanted.joined(separator: ", ")): \(result.note ?? "")",
                steps: check.script(profile).count)
            run.breach = result.breach
            run.failure?.stderrTail = pipe.stderrTail
            return .failed(run)
        }
        let answer = result.values.first { $0["id"] == .string(Self.probeID) }
        guard let methods = answer?["result"]?["methods"]?.arrayValue else { return .run }
        let offered = Set(methods.compactMap { $0["name"]?.stringValue })
        let missing = wanted.filter { !offered.contains($0) }
        return missing.isEmpty ? .run : .notOffered("\(missing.joined(separator: ", ")): not listed by rpc.discover")
    }
}
