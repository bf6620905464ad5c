import HostProtocol
import RustSide

/// What the invariant checks read from a simulation's timeline after every step: the
/// service manager's steps, the plugin's `os/violation` reports and its
/// `plugin/safetyTimer` events, in order, gathered as the timeline grows.
///
/// The timeline is only ever appended to, so each entry is looked at once: asking after
/// every step costs what the step added, not the whole timeline again (with the events'
/// params decoded again each time, that made a seven-day case quadratic in its length).
struct TimelineDigest {
    /// How many timeline entries have been gathered.
    private(set) var gathered = 0
    private(set) var serviceEvents: [ServiceEvent] = []
    private(set) var pluginReports: [ViolationEvent.Params] = []
    private(set) var safetyTimerEvents: [SafetyTimerEvent.Params] = []

    /// Gathers the entries of `timeline` past the ones already gathered.
    mutating func update(from timeline: [TimelineEntry]) {
        guard timeline.count > gathered else { return }
        for entry in timeline[gathered...] {
            switch entry.kind {
            case .service(let e):
                serviceEvents.append(e)
            case .event(let n) where n.method == ViolationEvent.name:
                if let p = n.params, let report = try? ViolationEvent.Params(json: p) { pluginReports.append(report) }
            case .event(let n) where n.method == SafetyTimerEvent.name:
                if let p = n.params, let event = try? SafetyTimerEvent.Params(json: p) {
                    safetyTimerEvents.append(event)
                }
            default:
                break
            }
        }
        gathered = timeline.count
    }
}

extension SystemSimulation {
    /// The timeline's digest, brought up to date.
    func digest() -> TimelineDigest {
        shared.withLock { s in
            s.digest.update(from: s.timeline)
            return s.digest
        }
    }

    /// Every `plugin/safetyTimer` event the plugin has sent so far, in order.
    public var safetyTimerEventsSoFar: [SafetyTimerEvent.Params] { digest().safetyTimerEvents }

    /// Every `os/violation` the plugin has reported so far, in order.
    public var pluginReportsSoFar: [ViolationEvent.Params] { digest().pluginReports }

    /// The service manager's steps so far, in order.
    public var serviceEventsSoFar: [ServiceEvent] { digest().serviceEvents }
}
