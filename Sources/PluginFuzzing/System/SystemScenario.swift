import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// What the random parts of a system case are: the services each start gets, the
/// config, the Rust side's blocking pool size, and how its races are decided.
public struct SystemScenario: Sendable, Hashable {
    /// One start's service.
    public struct Run: Sendable, Hashable {
        /// How long `initialize` takes (host clock).
        public var initSeconds: Double
        /// Whether `initialize` fails.
        public var initFails: Bool
        /// How long `run` takes.
        public var runSeconds: Double
        /// How `run` ends when not cancelled.
        public var outcome: SyncService.Outcome
        /// What `run` does when cancelled.
        public var onCancel: SyncService.CancelBehaviour

        var service: SyncService {
            SyncService(
                initSeconds: initSeconds, initFails: initFails, runSeconds: runSeconds, outcome: outcome,
                onCancel: onCancel)
        }

        var json: JSONValue {
            [
                "initSeconds": .number(initSeconds), "initFails": .bool(initFails), "runSeconds": .number(runSeconds),
                "outcome": .string(outcome.rawValue), "onCancel": .string(onCancel.rawValue),
            ]
        }

        init(
            initSeconds: Double, initFails: Bool, runSeconds: Double, outcome: SyncService.Outcome,
            onCancel: SyncService.CancelBehaviour
        ) {
            self.initSeconds = initSeconds
            self.initFails = initFails
            self.runSeconds = runSeconds
            self.outcome = outcome
            self.onCancel = onCancel
        }

        init?(json: JSONValue) {
            guard let i = json["initSeconds"]?.doubleValue, let f = json["initFails"]?.boolValue,
                let r = json["runSeconds"]?.doubleValue,
                let o = json["outcome"]?.stringValue.flatMap(SyncService.Outcome.init(rawValue:)),
                let c = json["onCancel"]?.stringValue.flatMap(SyncService.CancelBehaviour.init(rawValue:))
            else { return nil }
            self.init(initSeconds: i, initFails: f, runSeconds: r, outcome: o, onCancel: c)
        }
    }

    /// The services the starts get (see `serviceOrder`).
    public var runs: [Run]
    /// `iosSafetyTimeoutSecs`.
    public var safetyTimeout: Double
    /// `iosProcessingSafetyTimeoutSecs`.
    public var processingSafetyTimeout: Double
    /// The cancel listener's timeout, whole seconds.
    public var listenerTimeout: UInt64
    /// Both requests' earliest begin, minutes.
    public var earliestMinutes: Double
    /// The Rust side's blocking pool (tokio's default 512; fewer reach its end in fewer steps).
    public var blockingThreads: Int
    /// How the races are decided: drawn from a seed, or (in a trace) the recorded orders.
    public var races: RacePlan
    /// Which of `runs` each start gets, in order; past its end (or without it) the starts
    /// cycle through `runs`. A shrunk trace fixes it, so that each start keeps its service.
    public var serviceOrder: [Int]?
    /// Under `--os ios`: whether the app's code starts the service at every launch.
    public var restartAtLaunch = false
    /// The processing request's earliest begin, minutes (nil: `earliestMinutes`), and
    /// whether it needs external power: a processing request for the night.
    public var processingEarliestMinutes: Double?
    /// Whether the processing request needs external power.
    public var processingNeedsPower = false

    /// The run the `n`th start (from 0) gets.
    func runIndex(start n: Int) -> Int {
        if let order = serviceOrder, n < order.count { return order[n] }
        return n % runs.count
    }

    var config: StartKeepaliveConfig {
        var c = StartKeepaliveConfig()
        c.iosSafetyTimeoutSecs = safetyTimeout
        c.iosProcessingSafetyTimeoutSecs = processingSafetyTimeout
        c.iosCancelListenerTimeoutSecs = listenerTimeout
        c.iosEarliestRefreshBeginMinutes = earliestMinutes
        c.iosEarliestProcessingBeginMinutes = processingEarliestMinutes ?? earliestMinutes
        c.iosRequiresExternalPower = processingNeedsPower
        return c
    }

    /// The scenario as a trace header writes it.
    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "runs": .array(runs.map(\.json)), "safetyTimeout": .number(safetyTimeout),
            "processingSafetyTimeout": .number(processingSafetyTimeout),
            "listenerTimeout": .number(JSONNumber(Int64(clamping: listenerTimeout))),
            "earliestMinutes": .number(earliestMinutes), "blockingThreads": .number(blockingThreads),
            "races": [
                "seed": races.seed.map { .number(JSONNumber(literal: String($0))!) } ?? .null,
                "orders": .object(races.orders.mapValues { .array($0.map { .string($0) }) }),
            ],
            "serviceOrder": serviceOrder.map { .array($0.map { .number($0) }) } ?? .null,
        ]
        if restartAtLaunch { o["restartAtLaunch"] = true }
        if let processingEarliestMinutes { o["processingEarliestMinutes"] = .number(processingEarliestMinutes) }
        if processingNeedsPower { o["processingNeedsPower"] = true }
        return .object(JSONObject(o))
    }

    /// A scenario.
    public init(
        runs: [Run], safetyTimeout: Double, processingSafetyTimeout: Double, listenerTimeout: UInt64,
        earliestMinutes: Double, blockingThreads: Int = BlockingPool.tokioDefault, races: RacePlan = RacePlan(),
        serviceOrder: [Int]? = nil
    ) {
        self.runs = runs
        self.safetyTimeout = safetyTimeout
        self.processingSafetyTimeout = processingSafetyTimeout
        self.listenerTimeout = listenerTimeout
        self.earliestMinutes = earliestMinutes
        self.blockingThreads = blockingThreads
        self.races = races
        self.serviceOrder = serviceOrder
    }

    /// Reads a trace header's scenario; nil when a member is missing or wrong.
    public init?(json: JSONValue) {
        guard let runs = json["runs"]?.arrayValue?.compactMap(Run.init(json:)),
            let s = json["safetyTimeout"]?.doubleValue, let p = json["processingSafetyTimeout"]?.doubleValue,
            let l = json["listenerTimeout"].flatMap({ UInt64($0.description) }),
            let e = json["earliestMinutes"]?.doubleValue,
            let threads = json["blockingThreads"]?.doubleValue.flatMap({ Int(exactly: $0) }),
            let r = json["races"]
        else { return nil }
        var orders: [String: [String]] = [:]
        for (race, list) in r["orders"]?.objectValue ?? [:] {
            orders[race] = list.arrayValue?.compactMap(\.stringValue) ?? []
        }
        let seed = r["seed"].flatMap { UInt64($0.description) }
        guard let plan = RacePlan(orders: orders, seed: seed) else { return nil }
        let order = json["serviceOrder"]?.arrayValue?.map { $0.doubleValue.flatMap { Int(exactly: $0) } ?? -1 }
        guard !runs.isEmpty, order?.allSatisfy({ runs.indices.contains($0) }) ?? true else { return nil }
        self.init(
            runs: runs, safetyTimeout: s, processingSafetyTimeout: p, listenerTimeout: l, earliestMinutes: e,
            blockingThreads: threads, races: plan, serviceOrder: order)
        restartAtLaunch = json["restartAtLaunch"]?.boolValue ?? false
        processingEarliestMinutes = json["processingEarliestMinutes"]?.doubleValue
        processingNeedsPower = json["processingNeedsPower"]?.boolValue ?? false
    }
}
