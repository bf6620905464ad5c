import HostProtocol
import PluginHost

/// D1 and the plugin's two queues (`--dispatch tauri`): the races the plugin reports on invokes.
///
/// Under `--dispatch tauri` an OS event and a host invoke at one instant run on the plugin's
/// two queues, and the seed's statements can interleave (docs/protocol.md section 8). The
/// plugin reports what that breaks as `os/violation`: a stored `waitForCancel` let go of
/// unanswered (`invoke.never-answered`: its blocking thread waits for ever) and an invoke
/// answered twice (`invoke.answered-once`) break D1; a second `setTaskCompleted`
/// (`exactly-once`) is D2's, read from the plugin's counters.
extension InvariantChecker {
    /// D1 for each race on an invoke among `reports` (the plugin's new `os/violation`s).
    mutating func invokeRaces(_ reports: [ViolationEvent.Params]) -> [Violation] {
        var found: [Violation] = []
        for report in reports {
            switch report.rule {
            case "invoke.never-answered":
                invokeRaces += 1
                if let id = Self.request(in: report.detail) { lostWaits.insert(id) }
                found.append(
                    Violation(
                        invariant: .d1, cause: "a waitForCancel was lost between the plugin's queues",
                        detail: "the plugin reported invoke.never-answered: \(report.detail); the blocking thread"
                            + " that wrote it waits for ever"))
            case "invoke.answered-once":
                invokeRaces += 1
                found.append(
                    Violation(
                        invariant: .d1, cause: "an invoke was answered twice between the plugin's queues",
                        detail: "the plugin reported invoke.answered-once: \(report.detail)"))
            case "dispatch.main-deadlock":
                // (Counted with the races, so that D2 does not read it as a second completion.)
                invokeRaces += 1
                found.append(
                    Violation(
                        invariant: .i6, cause: "the plugin hops to the main queue its own caller blocks: a deadlock",
                        detail: "the plugin reported dispatch.main-deadlock: \(report.detail)"))
            default:
                continue
            }
        }
        return found
    }

    /// The request a report names (`waitForCancel request 7 was let go of ...`).
    static func request(in detail: String) -> RequestID? {
        guard let start = detail.range(of: "request ")?.upperBound,
            let end = detail[start...].firstIndex(of: " ")
        else { return nil }
        let text = detail[start..<end]
        if let n = Int(text) { return .int(n) }
        return .string(String(text.filter { $0 != "\"" }))
    }
}
