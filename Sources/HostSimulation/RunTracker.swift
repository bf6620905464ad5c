import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// Follows a manager's events to know, without asking the actor, whether a run holds
/// the token: `start` takes it (unless rolled back), a carried-out stop and the end of
/// the current run release it.
struct RunTracker {
    private(set) var running = false
    private(set) var started = false
    private var beforeStop = false

    mutating func apply(_ event: ServiceEvent) {
        switch event {
        case .startRequested:
            running = true
            started = true
        case .rolledBack:
            running = false
        case .runEnded(_, _, _, let current) where current:
            running = false
        case .stopRequested:
            beforeStop = running
            running = false
        case .stopIgnored:
            running = beforeStop
        default:
            break
        }
    }
}
