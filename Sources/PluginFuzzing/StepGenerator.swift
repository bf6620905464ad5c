import HostProtocol
import PluginHost

/// Draws random steps over the whole alphabet: the five invokes with well- and
/// ill-typed params (and as notifications), every `os/` control with good and bad
/// params, times that land exactly on, just before and just after the safety
/// timer's deadline and the requests' begin dates, `plugin/state`,
/// `plugin/reset`, and ids that are fresh, reused, or the pending one's.
public struct StepGenerator: Sendable {
    var rng: SplitMix64
    private var nextID = 0
    private let refreshID: String
    private let processingID: String
    /// Whether racing batches are drawn (`--dispatch tauri`, `StepGenerator+Batch.swift`).
    let batches: Bool

    /// Creates a generator; with `batches`, some steps are racing batches.
    public init(seed: UInt64, bundleIdentifier: String = "com.example.app", batches: Bool = false) {
        rng = SplitMix64(seed: seed)
        refreshID = bundleIdentifier + ".bg-refresh"
        processingID = bundleIdentifier + ".bg-processing"
        self.batches = batches
    }

    mutating func pick<T>(_ options: [T]) -> T { options[rng.below(options.count)] }

    mutating func freshID() -> RequestID {
        nextID += 1
        return rng.chance(0.2) ? .string("r\(nextID)") : .int(nextID)
    }

    private mutating func id(model: ReferenceModel) -> RequestID {
        if let pending = model.pendingCancelInvoke, rng.chance(0.03) { return pending }  // duplicate
        if nextID > 3, rng.chance(0.03) { return .int(rng.below(nextID) + 1) }  // reused, no longer pending
        return freshID()
    }

    /// The next step, given what the model says about the plugin now.
    public mutating func next(model: ReferenceModel) -> FuzzStep {
        if batches, rng.chance(Self.batchChance) { return racingBatch(model: model) }
        let roll = rng.below(100)
        let method: String
        switch roll {
        case 0..<10: method = StartKeepalive.name
        case 10..<20: method = WaitForCancel.name
        case 20..<28: method = CompleteBgTask.name
        case 28..<32: method = StopKeepalive.name
        case 32..<36: method = CancelCancelListener.name
        case 36..<50: method = OSLaunch.name
        case 50..<55: method = OSExpire.name
        case 55..<80: method = OSAdvanceTime.name
        case 80..<86: method = OSSetConditions.name
        case 86..<89: method = OSPendingTaskRequests.name
        case 89..<95: method = PluginStateMethod.name
        case 95..<97: method = PluginReset.name
        default: method = pick(["no/such/method", "startkeepalive", "os/teleport"])
        }
        var params = self.params(for: method, model: model)
        if rng.chance(0.02) { params = .array([]) }
        if rng.chance(0.01) { params = pick([.number(1), .string("x"), .bool(true), .null]) }
        let invoke = [
            StartKeepalive.name, WaitForCancel.name, CompleteBgTask.name, StopKeepalive.name, CancelCancelListener.name,
        ].contains(method)
        if invoke, rng.chance(0.05) {
            return FuzzStep(.notification(RPCNotification(method: method, params: params)))
        }
        return FuzzStep(.request(Request(id: id(model: model), method: method, params: params)))
    }

    mutating func params(for method: String, model: ReferenceModel) -> JSONValue? {
        switch method {
        case StartKeepalive.name: return startKeepaliveParams()
        case CompleteBgTask.name:
            return pick([
                ["success": true], ["success": false], .object([:]), ["success": .string("yes")], ["success": .null],
                ["success": 1],
                ["success": false, "extra": 1],
            ])
        case OSLaunch.name, OSExpire.name:
            if rng.chance(0.06) {
                return pick([.object([:]), ["identifier": 7], ["identifier": "com.example.app.bg-other"]])
            }
            if let active = model.activeTaskIdentifier, method == OSExpire.name, rng.chance(0.8) {
                return ["identifier": .string(active)]
            }
            let pending = model.pendingRequests.map(\.0)
            if method == OSLaunch.name, !pending.isEmpty, rng.chance(0.8) {
                return ["identifier": .string(pick(pending))]
            }
            return ["identifier": .string(pick([refreshID, processingID]))]
        case OSAdvanceTime.name: return ["seconds": advanceAmount(model: model)]
        case OSSetConditions.name: return conditionsParams()
        case WaitForCancel.name, StopKeepalive.name, CancelCancelListener.name:
            return rng.chance(0.9) ? nil : ["ignored": "member"]
        default: return nil
        }
    }

    private mutating func startKeepaliveParams() -> JSONValue {
        var o: [String: JSONValue] = [:]
        func maybe(_ key: String, _ good: [JSONValue], bad: [JSONValue]) {
            guard rng.chance(0.4) else { return }
            o[key] = rng.chance(0.85) ? pick(good) : pick(bad)
        }
        maybe(
            "iosSafetyTimeoutSecs", [28, 1, 5, 0.5, 30, 60, 0, -1, 2.000000001],
            bad: ["28", .null, .bool(true), .number(JSONNumber(literal: "1e400")!)])
        maybe("iosProcessingSafetyTimeoutSecs", [0, 10, 45, -5, .null, 1.5], bad: ["10", .bool(false)])
        maybe("iosEarliestRefreshBeginMinutes", [15, 0, 1, 0.5, -1, 0.25], bad: ["15", .null])
        maybe("iosEarliestProcessingBeginMinutes", [15, 0, 1, 2, 0.75], bad: [.bool(true), .array([])])
        maybe("iosRequiresExternalPower", [true, false], bad: [1, "true"])
        maybe("iosRequiresNetworkConnectivity", [true, false], bad: [0, .null])
        maybe("label", ["sync"], bad: [3])
        maybe("foregroundServiceType", ["dataSync"], bad: [.bool(true)])
        if rng.chance(0.05) { o["unknownMember"] = 1 }
        return .object(o)
    }

    /// Amounts that land on, just before, just after due times, or anywhere.
    private mutating func advanceAmount(model: ReferenceModel) -> JSONValue {
        if rng.chance(0.03) { return pick(["1", .number(-1), .null, .number(JSONNumber(literal: "1e400")!)]) }
        var targets: [VirtualTime] = []
        if let d = model.safetyTimerDeadline { targets.append(d) }
        targets += model.pendingRequests.map(\.1)
        let now = model.now
        if !targets.isEmpty, rng.chance(0.6) {
            let target = pick(targets)
            let delta = pick([Int64(0), -1, 1])
            let ns = max(0, target.nanoseconds + delta - now.nanoseconds)
            return VirtualTime(nanoseconds: ns).json
        }
        let seconds = pick([0.0, 0.000000001, 0.0001, 1, 5, 14, 27.999999999, 28, 29, 60, 300, 900, 901, 3600])
        return VirtualTime(seconds: seconds)!.json
    }

    private mutating func conditionsParams() -> JSONValue {
        if rng.chance(0.05) { return pick([["autoLaunch": "yes"], ["backgroundRefreshStatus": "sometimes"]]) }
        var o: [String: JSONValue] = [:]
        if rng.chance(0.5) { o["autoLaunch"] = .bool(rng.chance(0.7)) }
        if rng.chance(0.3) { o["externalPower"] = .bool(rng.chance(0.5)) }
        if rng.chance(0.3) { o["networkConnected"] = .bool(rng.chance(0.6)) }
        if rng.chance(0.15) {
            o["backgroundRefreshStatus"] = .string(pick(["available", "available", "denied", "restricted"]))
        }
        return .object(o)
    }
}
