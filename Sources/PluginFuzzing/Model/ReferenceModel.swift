import HostProtocol

/// An independent reference model of the contract's sections 3 to 6: given a
/// request (or notification), it predicts every reply and event the plugin must
/// write, in order.
///
/// It shares the message types of `HostProtocol` with the plugin and nothing
/// else: every rule below is written again from `CONTRACT.md`. It assumes events
/// are on (the fuzzer turns them on) and the default Info.plist.
///
/// ```swift
/// var model = ReferenceModel(profile: .seed, bundleIdentifier: "com.example.app")
/// let frames = model.apply(.request(Request(id: .int(1), method: "startKeepalive", params: .object([:]))))
/// // two os/requestSubmitted events, then {"id":1,"jsonrpc":"2.0","result":null}
/// ```
public struct ReferenceModel: Sendable {
    /// A message sent to the plugin.
    public enum Input: Sendable, Hashable {
        /// A request (it gets a reply).
        case request(Request)
        /// A notification (no reply).
        case notification(RPCNotification)
        /// A JSON-RPC batch (`ReferenceModel+Batch.swift`).
        indirect case batch([Input])
    }

    let profile: Profile
    /// `--dispatch`: under `tauri` with `strict`, a batch runs its `os/` controls first.
    let dispatch: DispatchMode
    let bundleIdentifier: String
    var state = ModelState()
    /// Frames produced by the step being applied.
    var out: [JSONValue] = []
    /// Whether the current step is a request (answers are written) or a notification.
    var answering = true
    /// The slot of the batch member being applied (its answer goes there), if any; for a
    /// notification, where an invalid message's error goes.
    var currentSlot: Int?

    /// Creates a model of a freshly started plugin.
    public init(profile: Profile, dispatch: DispatchMode = .serial, bundleIdentifier: String = "com.example.app") {
        self.profile = profile
        self.dispatch = dispatch
        self.bundleIdentifier = bundleIdentifier
    }

    var refreshID: String { bundleIdentifier + ".bg-refresh" }
    var processingID: String { bundleIdentifier + ".bg-processing" }

    /// The model's clock.
    public var now: VirtualTime { state.now }
    /// The pending cancel invoke's id (for generating duplicates).
    public var pendingCancelInvoke: RequestID? { state.cancelInvoke }
    /// The safety timer's deadline, when one is valid.
    public var safetyTimerDeadline: VirtualTime? { state.timer.flatMap { $0.valid ? $0.deadline : nil } }
    /// The running task's identifier.
    public var activeTaskIdentifier: String? { state.task?.identifier }
    /// Pending request identifiers and their earliest begin dates.
    public var pendingRequests: [(String, VirtualTime)] { state.sortedPending.map { ($0.0, $0.1.earliest) } }
    /// Whether auto-launch is on.
    public var autoLaunch: Bool { state.conditions.autoLaunch }
    /// A hashable fingerprint of the state (for exhaustive exploration).
    var fingerprint: ModelState { state }

    /// Applies one input; returns the frames the plugin must write, in order.
    public mutating func apply(_ input: Input) -> [JSONValue] {
        out = []
        switch input {
        case .request(let r):
            answering = true
            handle(id: r.id, method: r.method, params: r.params)
        case .notification(let n):
            answering = false
            handle(id: nil, method: n.method, params: n.params)
        case .batch(let members):
            applyBatch(members, order: defaultOrder(members))
        }
        return out
    }

    // MARK: - Output

    func responseJSON(_ id: RequestID, _ outcome: Result<JSONValue, RPCError>) -> JSONValue {
        Response(id: id, outcome: outcome).json
    }

    mutating func answer(_ id: RequestID?, _ outcome: Result<JSONValue, RPCError>) {
        guard answering, let id else { return }
        if let slot = currentSlot {
            let response = responseJSON(id, outcome)
            state.reading?.slots[slot] = .answered(response)
        } else {
            out.append(responseJSON(id, outcome))
        }
    }

    /// Answers a stored invoke (the pending `waitForCancel`): always written, it was a request
    /// (into its batch's reply when it came in one).
    mutating func answerStored(_ id: RequestID, _ outcome: Result<JSONValue, RPCError>) {
        settleCancel(responseJSON(id, outcome))
    }

    mutating func event(_ method: String, _ params: JSONValue) {
        out.append(RPCNotification(method: method, params: params).json)
    }

    // MARK: - Dispatch

    mutating func handle(id: RequestID?, method: String, params rawParams: JSONValue?) {
        // params that are neither object nor array make the message invalid: -32600,
        // answered even without an id.
        if let p = rawParams, p.objectValue == nil, p.arrayValue == nil {
            let error = responseJSON(id ?? .null, .failure(.invalidRequest("params")))
            if let slot = currentSlot { state.reading?.slots[slot] = .answered(error) } else { out.append(error) }
            return
        }
        // A request reusing the id of a pending one: -32600, nothing else happens.
        if let id, id == state.cancelInvoke {
            answer(id, .failure(.invalidRequest("duplicate id")))
            return
        }
        let known = MethodRegistry.method(named: method) != nil
        guard known else {
            answer(id, .failure(.methodNotFound(method)))
            return
        }
        let params: JSONObject
        switch rawParams {
        case nil: params = [:]
        case .object(let o)?: params = o
        default:
            answer(id, .failure(.invalidParams("params must be an object")))
            return
        }
        switch method {
        case StartKeepalive.name: startKeepalive(id, params)
        case WaitForCancel.name: waitForCancel(id)
        case CompleteBgTask.name: completeBgTask(id, params)
        case StopKeepalive.name: stopKeepalive(id)
        case CancelCancelListener.name: cancelCancelListener(id)
        case OSLaunch.name: osLaunch(id, params)
        case OSExpire.name: osExpire(id, params)
        case OSAdvanceTime.name: osAdvanceTime(id, params)
        case OSPendingTaskRequests.name:
            answer(id, .success(.array(state.sortedPending.map { $0.1.json($0.0) })))
        case OSSetConditions.name: osSetConditions(id, params)
        case PluginStateMethod.name: answer(id, .success(snapshot()))
        case PluginReset.name:
            rejectPending(.reset)
            state = ModelState()
            answer(id, .success(.null))
        default:
            // initialize, shutdown and os/submit are not part of the fuzzer's alphabet.
            answer(id, .failure(.internalError("the model does not cover \(method)")))
        }
    }

    /// The contract fields of `plugin/state`.
    func snapshot() -> JSONValue {
        let s = state
        return [
            "now": s.now.json,
            "clock": "virtual",
            "profile": .string(profile.rawValue),
            "activeTask": s.task.map {
                [
                    "identifier": .string($0.identifier), "kind": .string($0.kind.rawValue),
                    "launchedAt": $0.launchedAt.json,
                ]
            } ?? .null,
            "pendingCancelInvoke": s.cancelInvoke?.json ?? .null,
            "safetyTimer": safetyTimerDeadline.map { ["deadline": $0.json] } ?? .null,
            "config": s.config.json,
            "pendingRequests": .array(s.sortedPending.map { $0.1.json($0.0) }),
            "registered": .array(
                [
                    ["identifier": .string(processingID), "kind": "processing"],
                    ["identifier": .string(refreshID), "kind": "refresh"],
                ].sorted {
                    ($0["identifier"]?.stringValue ?? "").utf8.lexicographicallyPrecedes(
                        ($1["identifier"]?.stringValue ?? "").utf8)
                }),
            "conditions": s.conditions.json,
            "counters": [
                "launched": .number(s.launched), "completed": .number(s.completed),
                "expired": .number(s.expired), "violations": 0,
            ],
        ]
    }
}
