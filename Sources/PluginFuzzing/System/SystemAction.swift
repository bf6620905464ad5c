import HostProtocol
import PluginHost

/// One step of a system-level case: something the app, the user or iOS does, or
/// time passing.
public enum SystemAction: Sendable, Hashable {
    /// The app starts the service.
    case start
    /// The app stops the service.
    case stop
    /// iOS launches a pending request (simulate-launch).
    case launch(TaskKind)
    /// iOS expires the running task.
    case expire
    /// Time passes (host and plugin together).
    case advance(VirtualTime)
    /// Device conditions change.
    case conditions(OSSetConditions.Params)

    /// The action as JSON (trace files).
    public var json: JSONValue {
        switch self {
        case .start: ["action": "start"]
        case .stop: ["action": "stop"]
        case .launch(let k): ["action": "launch", "kind": .string(k.rawValue)]
        case .expire: ["action": "expire"]
        case .advance(let t): ["action": "advance", "seconds": t.json]
        case .conditions(let p): ["action": "conditions", "params": p.json]
        }
    }

    /// Reads an action back.
    public init?(json: JSONValue) {
        switch json["action"]?.stringValue {
        case "start": self = .start
        case "stop": self = .stop
        case "launch":
            guard let k = json["kind"]?.stringValue.flatMap(TaskKind.init(rawValue:)) else { return nil }
            self = .launch(k)
        case "expire": self = .expire
        case "advance":
            guard let t = json["seconds"].flatMap({ JSONField<VirtualTime>.time.read($0) }) else { return nil }
            self = .advance(t)
        case "conditions":
            guard let p = json["params"].flatMap({ try? OSSetConditions.Params(json: $0) }) else { return nil }
            self = .conditions(p)
        default: return nil
        }
    }

    /// A command of the app's (start, stop), which can race a run's end (``Race/runEndVsApp``).
    public var isAppCommand: Bool { self == .start || self == .stop }

    /// When the action ends, if it starts at `now`.
    func end(from now: VirtualTime) -> VirtualTime {
        if case .advance(let d) = self { now.adding(nanoseconds: d.nanoseconds) } else { now }
    }

    /// In words.
    public var summary: String {
        switch self {
        case .start: "the app starts the service"
        case .stop: "the app stops the service"
        case .launch(let k): "iOS launches the \(k.rawValue) task"
        case .expire: "iOS expires the running task"
        case .advance(let t): "\(t.decimalSeconds) s pass"
        case .conditions(let p): "conditions change: \(p.json)"
        }
    }
}
