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
    /// Under `--dispatch tauri`: while the first action is played (the app's command, or time
    /// passing), the OS's (an expiration or a launch) happens at the instant the Rust side
    /// writes its next `invoke`: the two reach the plugin as one batch, run on its two queues
    /// (`SystemCase+Together.swift`).
    indirect case together(SystemAction, os: SystemAction, invoke: String)
    /// `--os ios`: the app creates a new webview, and Tauri loads the plugin again (`os/webviewCreated`).
    case webviewCreated
    /// `--os ios --dispatch tauri`: the app's own long work keeps the main thread busy (`os/blockMain`).
    case blockMain(VirtualTime)
    /// `--os ios --dispatch tauri`: the app calls the Rust side's `start` or `stop` (the
    /// action) from a synchronous command on the main thread (`x-mainThreadCaller`;
    /// `ServiceManager+MainThread.swift`).
    indirect case onMainThread(SystemAction)
    /// `--os ios`: the OS's limit on tasks running at once changes (`maxConcurrentTasks`, nil: none).
    case maxConcurrentTasks(Int?)
    /// `--os ios` with the policy's `appStates`: the user leaves the app (`os/sendToBackground`, issue 23).
    case sendToBackground
    /// Time passes to the next deadline, whichever comes first: the plugin's (a safety timer, an
    /// auto-launch; under `--os ios` a budget, the watchdog, a launch, a suspension), the OS's
    /// refresh budget, or the Rust side's (a sleeper on the host clock); a minute when none is
    /// due (issue 25's clock bias,
    /// `SystemCase+Deadline.swift`). Resolved when it is played, so that it still lands on a
    /// deadline once shrinking has removed the steps before it.
    case advanceToNextDeadline

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
        case .together(let during, let os, let invoke):
            ["action": "together", "during": during.json, "os": os.json, "invoke": .string(invoke)]
        case .webviewCreated: ["action": "webviewCreated"]
        case .blockMain(let t): ["action": "blockMain", "seconds": t.json]
        case .onMainThread(let command): ["action": "onMainThread", "command": command.json]
        case .maxConcurrentTasks(let n): ["action": "maxConcurrentTasks", "limit": n.map { .number($0) } ?? .null]
        case .sendToBackground: ["action": "sendToBackground"]
        case .advanceToNextDeadline: ["action": "advanceToNextDeadline"]
        }
    }

    /// Reads an action back; nil when it is not one (``read(_:)`` says why).
    public init?(json: JSONValue) {
        guard let action = try? Self.read(json) else { return nil }
        self = action
    }

    /// A command of the app's (start, stop), which can race a run's end (``Race/runEndVsApp``).
    public var isAppCommand: Bool {
        if case .together(let during, _, _) = self { return during.isAppCommand }
        if case .onMainThread(let command) = self { return command.isAppCommand }
        return self == .start || self == .stop
    }

    /// When the action ends, if it starts at `now`.
    func end(from now: VirtualTime) -> VirtualTime {
        switch self {
        case .advance(let d): now.adding(nanoseconds: d.nanoseconds)
        case .together(let during, _, _): during.end(from: now)
        // (`advanceToNextDeadline` is resolved into an `advance` before this is asked.)
        default: now
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
        case .together(let during, let os, let invoke):
            "\(during.summary); \(os.summary) as the Rust side writes \(invoke) (one batch)"
        case .webviewCreated: "the app creates a new webview (Tauri loads the plugin again)"
        case .blockMain(let t): "the app's own work blocks the main thread for \(t.decimalSeconds) s"
        case .onMainThread(let command): "\(command.summary), from a synchronous command on the main thread"
        case .maxConcurrentTasks(let n): "iOS runs at most \(n.map(String.init) ?? "any number of") task(s) at once"
        case .sendToBackground: "the user leaves the app (it goes to the background)"
        case .advanceToNextDeadline: "time passes to the next deadline"
        }
    }
}
