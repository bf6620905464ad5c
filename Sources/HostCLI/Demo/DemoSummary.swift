import HostProtocol
import HostSimulation
import PluginHost

/// The demo's closing summary: what the service and the tasks did, and the plugin's counters.
enum DemoSummary {
    static func text(entries: [TimelineEntry], finalState: PluginStateSnapshot?, pluginExit: ExitStatus) -> String {
        var starts = 0
        var stops = 0
        var rejections: [String: Int] = [:]
        var resolved = 0
        var completions = HostCLI.Sample(keeping: 10)
        for e in entries {
            switch e.kind {
            case .service(.startRequested): starts += 1
            case .service(.stopRequested): stops += 1
            case .event(let n) where n.method == TaskCompletedEvent.name:
                if let p = try? TaskEventParams(json: n.params ?? .null) {
                    completions.add(
                        "\(p.identifier.split(separator: ".").last ?? "") \(p.success == true ? "success" : "failure") "
                            + "at \(TimelineRenderer.clock(p.at))")
                }
            case .response(let r, .rust):
                if let reason = r.error?.rejectReason { rejections[reason.rawValue, default: 0] += 1 }
            default: break
            }
            if case .service(.listenerFinished(_, "resolved")) = e.kind { resolved += 1 }
        }
        var lines = ["summary:"]
        lines.append("  service starts: \(starts), stops requested: \(stops)")
        lines.append(
            "  background tasks completed: \(completions.count == 0 ? "none" : completions.text(separator: "; "))")
        lines.append(
            "  cancel listeners resolved (stop the service): \(resolved); rejected: "
                + (rejections.isEmpty
                    ? "none"
                    : rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        )
        if let s = finalState {
            lines.append(
                "  plugin counters: launched \(s.counters.launched), completed \(s.counters.completed), expired "
                    + "\(s.counters.expired), violations \(s.counters.violations), dropped invokes "
                    + "\(s.counters.dropped ?? 0)"
            )
            lines.append(
                "  pending requests at the end: "
                    + (s.pendingRequests.isEmpty ? "none" : s.pendingRequests.map(\.identifier).joined(separator: ", "))
            )
        }
        lines.append("  plugin \(pluginExit)")
        return lines.joined(separator: "\n")
    }
}
