import HostProtocol
import HostTestSupport

@testable import BackgroundServicePlugin
@testable import EmulatedIOS

/// Records what an ``EventSink`` is told, for in-process unit tests.
final class EventRecorder {
    var events: [(name: String, params: JSONValue)] = []
    var logs: [String] = []

    /// Holds the recorder strongly (a cycle, harmless in tests), so that a sink made
    /// from a temporary recorder stays usable.
    lazy var sink = EventSink(
        emit: { name, params in self.events.append((name, params)) },
        log: { line in self.logs.append(line) })

    var names: [String] { events.map(\.name) }

    /// The `rule` of every `os/violation` event.
    var violationRules: [String] {
        events.filter { $0.name == "os/violation" }.compactMap { $0.params["rule"]?.stringValue }
    }
}

/// A virtual clock at 0.
func virtualClock() -> PluginClock {
    PluginClock(kind: .virtual, timeScale: 1, monotonicNanoseconds: { 0 })
}

/// Seconds as a ``VirtualTime``.
func seconds(_ s: Double) -> VirtualTime { VirtualTime(seconds: s)! }

/// An emulated OS with the default Info.plist for `com.example.app`, or `plist`.
func makeOS(_ recorder: EventRecorder, plist: InfoPlist? = nil, faults: FaultSet = .none) -> EmulatedOS {
    EmulatedOS(
        clock: virtualClock(), infoPlist: plist ?? .defaultPlist(bundleIdentifier: "com.example.app"),
        events: recorder.sink, faults: faults.os)
}

/// A request with an earliest begin date.
func refreshRequest(_ identifier: String = refreshID, at: Double? = nil) -> BGAppRefreshTaskRequest {
    let r = BGAppRefreshTaskRequest(identifier: identifier)
    r.earliestBeginDate = at.map(seconds)
    return r
}

func processingRequest(
    _ identifier: String = processingID, at: Double? = nil, power: Bool = false, network: Bool = false
) -> BGProcessingTaskRequest {
    let r = BGProcessingTaskRequest(identifier: identifier)
    r.earliestBeginDate = at.map(seconds)
    r.requiresExternalPower = power
    r.requiresNetworkConnectivity = network
    return r
}
