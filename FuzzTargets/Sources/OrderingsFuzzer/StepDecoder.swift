import HostProtocol
import PluginFuzzing

/// Turns fuzzer bytes into messages. Every byte sequence is a valid script: a
/// missing byte reads as 0, so libFuzzer's mutations (flip, insert, erase, splice)
/// map to small edits of the script.
///
/// One opcode byte per step: its low 4 bits choose the method (15 starts a batch,
/// handled by the caller), its high 4 bits the id. Params take further bytes.
struct StepDecoder {
    private let bytes: [UInt8]
    private var position = 0
    private var lastID = 0
    private var usedIDs: [RequestID] = []

    static let refreshID = "com.example.app.bg-refresh"
    static let processingID = "com.example.app.bg-processing"
    static let invokes = ["startKeepalive", "waitForCancel", "completeBgTask", "stopKeepalive", "cancelCancelListener"]
    static let allMethods =
        invokes + [
            "os/launch", "os/expire", "os/advanceTime", "os/setConditions", "os/pendingTaskRequests", "plugin/state",
            "plugin/reset",
        ]

    init(_ raw: UnsafeRawBufferPointer) {
        bytes = Array(raw)
    }

    /// The next byte, nil at the end.
    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func pick<T>(_ options: [T]) -> T {
        options[Int(byte() ?? 0) % options.count]
    }

    mutating func freshID() -> RequestID {
        lastID += 1
        return .int(lastID)
    }

    /// An id chosen by the opcode's high bits: mostly fresh, sometimes a string, the
    /// pending `waitForCancel`'s (a duplicate), an id used before, null, or `N.0`.
    private mutating func id(_ choice: UInt8, model: ReferenceModel) -> RequestID {
        let id: RequestID
        switch choice {
        case 10:
            lastID += 1
            id = .string("s\(lastID)")
        case 11: id = model.pendingCancelInvoke ?? freshID()
        case 12: id = usedIDs.isEmpty ? freshID() : usedIDs[Int(byte() ?? 0) % usedIDs.count]
        case 13: id = .null
        case 14:
            if case .number(let n)? = usedIDs.last, let twin = JSONNumber(literal: n.literal + ".0") {
                id = .number(twin)
            } else {
                id = freshID()
            }
        default: id = freshID()
        }
        if usedIDs.count < 64 { usedIDs.append(id) }
        return id
    }

    /// The message for opcode `op`. In a batch, `waitForCancel` (which would hold
    /// the batch reply back) becomes `plugin/state`.
    mutating func message(op: UInt8, model: ReferenceModel, inBatch: Bool) -> ReferenceModel.Input {
        var method: String
        var params: JSONValue?
        var notification = false
        switch op % 16 {
        case 0: method = "startKeepalive"
        case 1: method = "waitForCancel"
        case 2: method = "completeBgTask"
        case 3: method = "stopKeepalive"
        case 4: method = "cancelCancelListener"
        case 5: method = "os/launch"
        case 6: method = "os/expire"
        case 7, 8: method = "os/advanceTime"
        case 9: method = "os/setConditions"
        case 10: method = "os/pendingTaskRequests"
        case 12: method = "plugin/reset"
        case 13:
            method = pick(Self.invokes)
            notification = true
        case 14:
            return oddity(op: op, model: model)
        default: method = "plugin/state"
        }
        if inBatch, method == "waitForCancel", !notification { method = "plugin/state" }
        params = self.params(for: method, model: model)
        if notification { return .notification(RPCNotification(method: method, params: params)) }
        return .request(Request(id: id(op >> 4, model: model), method: method, params: params))
    }

    /// Unknown methods, a method's name in the wrong case, params of the wrong JSON type.
    private mutating func oddity(op: UInt8, model: ReferenceModel) -> ReferenceModel.Input {
        let kind = byte() ?? 0
        let method = pick(Self.allMethods)
        switch kind % 6 {
        case 0:
            return .request(
                Request(id: id(op >> 4, model: model), method: pick(["no/such/method", "os/teleport", ""])))
        case 1: return .request(Request(id: id(op >> 4, model: model), method: method.uppercased()))
        case 2:
            return .request(
                Request(id: id(op >> 4, model: model), method: method, params: pick([.array([]), .array([1])])))
        case 3:
            let scalar: JSONValue = pick([.number(1), .string("x"), .bool(true), .null])
            return .request(Request(id: id(op >> 4, model: model), method: method, params: scalar))
        case 4:
            return .notification(
                RPCNotification(method: method, params: pick([.number(0), .string(""), .bool(false)])))
        default:
            return .notification(RPCNotification(method: pick(["no/such/method", "os/launch"]), params: .array([])))
        }
    }

    private mutating func params(for method: String, model: ReferenceModel) -> JSONValue? {
        switch method {
        case "startKeepalive": return startKeepaliveParams()
        case "completeBgTask":
            return pick([
                nil, ["success": true], ["success": false], .object([:]), ["success": "yes"], ["success": .null],
                ["success": 1],
                ["success": false, "extra": 1],
            ])
        case "os/launch", "os/expire":
            var choices: [JSONValue] = [
                ["identifier": .string(Self.refreshID)], ["identifier": .string(Self.processingID)],
                .object([:]), ["identifier": 7], ["identifier": "com.example.app.bg-other"],
            ]
            if let active = model.activeTaskIdentifier { choices.insert(["identifier": .string(active)], at: 0) }
            for (identifier, _) in model.pendingRequests { choices.insert(["identifier": .string(identifier)], at: 0) }
            return pick(choices)
        case "os/advanceTime": return ["seconds": advanceAmount(model: model)]
        case "os/setConditions": return conditionsParams()
        case "waitForCancel", "stopKeepalive", "cancelCancelListener", "plugin/state", "plugin/reset",
            "os/pendingTaskRequests":
            return nil
        default: return nil
        }
    }

    private mutating func startKeepaliveParams() -> JSONValue {
        let mask = byte() ?? 0
        var o: [String: JSONValue] = [:]
        let bad1e400 = JSONValue.number(JSONNumber(literal: "1e400")!)
        let fields: [(String, [JSONValue])] = [
            ("iosSafetyTimeoutSecs", [28, 1, 5, 0.5, 0, -1, 2.000000001, "28", .null, true, bad1e400, 1e300]),
            ("iosProcessingSafetyTimeoutSecs", [0, 10, 45, -5, .null, 1.5, "10", false]),
            ("iosEarliestRefreshBeginMinutes", [15, 0, 1, 0.5, -1, 0.25, "15", .null, 1e300]),
            ("iosEarliestProcessingBeginMinutes", [15, 0, 1, 2, 0.75, true, .array([])]),
            ("iosRequiresExternalPower", [true, false, 1, "true"]),
            ("iosRequiresNetworkConnectivity", [true, false, 0, .null]),
            ("label", ["sync", 3]),
            ("foregroundServiceType", ["dataSync", true, ["x": 1]]),
        ]
        for (bit, (key, values)) in fields.enumerated() where mask & (1 << bit) != 0 {
            o[key] = pick(values)
        }
        return .object(o)
    }

    /// Amounts that land on, just before or just after a due time, or elsewhere.
    private mutating func advanceAmount(model: ReferenceModel) -> JSONValue {
        let choice = byte() ?? 0
        var targets: [VirtualTime] = []
        if let d = model.safetyTimerDeadline { targets.append(d) }
        targets += model.pendingRequests.map(\.1)
        if choice < 96, !targets.isEmpty {
            let target = targets[Int(choice) % targets.count]
            let delta = Int64(choice / 32) - 1  // -1, 0, +1 ns
            return VirtualTime(nanoseconds: max(0, target.nanoseconds + delta - model.now.nanoseconds)).json
        }
        let fixed: [JSONValue] = [
            0, 0.000000001, 0.0001, 1, 5, 14, 27.999999999, 28, 29, 60, 300, 900, 901, 3600, 86400,
            "1", -1, .null, .number(JSONNumber(literal: "1e400")!), .number(JSONNumber(literal: "-0")!), 1e15,
        ]
        return fixed[Int(choice) % fixed.count]
    }

    private mutating func conditionsParams() -> JSONValue {
        let mask = byte() ?? 0
        let values = byte() ?? 0
        var o: [String: JSONValue] = [:]
        if mask & 1 != 0 { o["autoLaunch"] = .bool(values & 1 != 0) }
        if mask & 2 != 0 { o["externalPower"] = .bool(values & 2 != 0) }
        if mask & 4 != 0 { o["networkConnected"] = .bool(values & 4 != 0) }
        if mask & 8 != 0 {
            o["backgroundRefreshStatus"] = .string(
                ["available", "denied", "restricted", "sometimes"][Int(values >> 3) % 4])
        }
        if mask & 16 != 0 { o["autoLaunch"] = "yes" }
        return .object(o)
    }
}
