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
    /// `--os ios`: device conditions change, the ios members included (battery, Low Power Mode, use).
    case iosConditions(OSSetConditions.IOSParams)
    /// `--os ios`: the system or the user ends the app.
    case terminate(TerminationReason)
    /// `--os ios`: the user opens the app.
    case openApp
    /// `--os ios`: the OS's policy changes (budgets, delays, the watchdog's grace).
    case policy(IOSPolicy.Update)

    /// The action as JSON (trace files).
    public var json: JSONValue {
        switch self {
        case .start: ["action": "start"]
        case .stop: ["action": "stop"]
        case .launch(let k): ["action": "launch", "kind": .string(k.rawValue)]
        case .expire: ["action": "expire"]
        case .advance(let t): ["action": "advance", "seconds": t.json]
        case .conditions(let p): ["action": "conditions", "params": p.json]
        case .iosConditions(let p): ["action": "iosConditions", "params": p.json]
        case .terminate(let reason): ["action": "terminate", "reason": .string(reason.rawValue)]
        case .openApp: ["action": "openApp"]
        case .policy(let p): ["action": "policy", "params": p.json]
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
        case "iosConditions":
            guard let p = json["params"].flatMap({ try? OSSetConditions.IOSParams(json: $0) }) else { return nil }
            self = .iosConditions(p)
        case "terminate":
            guard let r = json["reason"]?.stringValue.flatMap(TerminationReason.init(rawValue:)) else { return nil }
            self = .terminate(r)
        case "openApp": self = .openApp
        case "policy":
            guard let p = json["params"].flatMap({ try? IOSPolicy.Update(json: $0) }) else { return nil }
            self = .policy(p)
        default: return nil
        }
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
        case .iosConditions(let p): "conditions change: \(p.json)"
        case .terminate(.forceQuit): "the user force-quits the app"
        case .terminate(let reason): "iOS terminates the app (\(reason.rawValue))"
        case .openApp: "the user opens the app"
        case .policy(let p): "iOS's policy changes: \(p.json)"
        }
    }
}

/// What the random parts of a system case are: the services each start gets, the
/// config, and the order host jobs run in.
public struct SystemScenario: Sendable, Hashable {
    /// One start's service.
    public struct Run: Sendable, Hashable {
        public var initSeconds: Double
        public var initFails: Bool
        public var runSeconds: Double
        public var outcome: SyncService.Outcome
        public var onCancel: SyncService.CancelBehaviour

        var service: SyncService {
            SyncService(initSeconds: initSeconds, initFails: initFails, runSeconds: runSeconds, outcome: outcome, onCancel: onCancel)
        }

        var json: JSONValue {
            [
                "initSeconds": .number(initSeconds), "initFails": .bool(initFails), "runSeconds": .number(runSeconds),
                "outcome": .string(outcome.rawValue), "onCancel": .string(onCancel.rawValue),
            ]
        }

        init(initSeconds: Double, initFails: Bool, runSeconds: Double, outcome: SyncService.Outcome, onCancel: SyncService.CancelBehaviour) {
            self.initSeconds = initSeconds
            self.initFails = initFails
            self.runSeconds = runSeconds
            self.outcome = outcome
            self.onCancel = onCancel
        }

        init?(json: JSONValue) {
            guard let i = json["initSeconds"]?.doubleValue, let f = json["initFails"]?.boolValue, let r = json["runSeconds"]?.doubleValue,
                let o = json["outcome"]?.stringValue.flatMap(SyncService.Outcome.init(rawValue:)),
                let c = json["onCancel"]?.stringValue.flatMap(SyncService.CancelBehaviour.init(rawValue:))
            else { return nil }
            self.init(initSeconds: i, initFails: f, runSeconds: r, outcome: o, onCancel: c)
        }
    }

    public var runs: [Run]
    public var safetyTimeout: Double
    public var processingSafetyTimeout: Double
    public var listenerTimeout: Double
    public var earliestMinutes: Double
    /// The job schedule's seed (nil: oldest first).
    public var scheduleSeed: UInt64?
    /// Under `--os ios`: whether the app's code starts the service at every launch.
    public var restartAtLaunch = false

    var config: StartKeepaliveConfig {
        var c = StartKeepaliveConfig()
        c.iosSafetyTimeoutSecs = safetyTimeout
        c.iosProcessingSafetyTimeoutSecs = processingSafetyTimeout
        c.iosCancelListenerTimeoutSecs = listenerTimeout
        c.iosEarliestRefreshBeginMinutes = earliestMinutes
        c.iosEarliestProcessingBeginMinutes = earliestMinutes
        return c
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "runs": .array(runs.map(\.json)), "safetyTimeout": .number(safetyTimeout),
            "processingSafetyTimeout": .number(processingSafetyTimeout), "listenerTimeout": .number(listenerTimeout),
            "earliestMinutes": .number(earliestMinutes),
            "scheduleSeed": scheduleSeed.map { .number(JSONNumber(literal: String($0))!) } ?? .null,
        ]
        if restartAtLaunch { o["restartAtLaunch"] = true }
        return .object(JSONObject(o))
    }

    public init(runs: [Run], safetyTimeout: Double, processingSafetyTimeout: Double, listenerTimeout: Double, earliestMinutes: Double, scheduleSeed: UInt64?) {
        self.runs = runs
        self.safetyTimeout = safetyTimeout
        self.processingSafetyTimeout = processingSafetyTimeout
        self.listenerTimeout = listenerTimeout
        self.earliestMinutes = earliestMinutes
        self.scheduleSeed = scheduleSeed
    }

    public init?(json: JSONValue) {
        guard let runs = json["runs"]?.arrayValue?.compactMap(Run.init(json:)), let s = json["safetyTimeout"]?.doubleValue,
            let p = json["processingSafetyTimeout"]?.doubleValue, let l = json["listenerTimeout"]?.doubleValue,
            let e = json["earliestMinutes"]?.doubleValue
        else { return nil }
        self.init(runs: runs, safetyTimeout: s, processingSafetyTimeout: p, listenerTimeout: l, earliestMinutes: e,
                  scheduleSeed: json["scheduleSeed"].flatMap { UInt64($0.description) })
        restartAtLaunch = json["restartAtLaunch"]?.boolValue ?? false
    }
}
