import HostProtocol
import PluginHost

/// The scripted invokes: three cycles that go through all five invokes and the
/// launch, expiration and safety-timer paths, each answer known in advance.
struct InvokeScript {
    struct Step: Sendable {
        let method: String
        let params: JSONValue?
        let isInvoke: Bool
        /// What the answer must be, for messages.
        let expectation: String
        let expect: @Sendable (Result<JSONValue, HostError>) -> Bool
    }

    private var position = 0
    private static let refresh = "com.example.app.bg-refresh"
    private static let processing = "com.example.app.bg-processing"

    var atCycleStart: Bool { Self.steps.indices.contains(position) && Self.cycleStarts.contains(position) }

    mutating func next() -> Step {
        defer { position = (position + 1) % Self.steps.count }
        return Self.steps[position]
    }

    static func invoke(
        _ method: String, _ params: JSONValue? = nil, _ expectation: String,
        _ expect: @escaping @Sendable (Result<JSONValue, HostError>) -> Bool
    ) -> Step {
        Step(method: method, params: params, isInvoke: true, expectation: expectation, expect: expect)
    }

    static func os(
        _ method: String, _ params: JSONValue?, _ expectation: String,
        _ expect: @escaping @Sendable (Result<JSONValue, HostError>) -> Bool
    ) -> Step {
        Step(method: method, params: params, isInvoke: false, expectation: expectation, expect: expect)
    }

    static let null: @Sendable (Result<JSONValue, HostError>) -> Bool = { (try? $0.get()) == .null }
    static func rejected(_ reason: RejectReason) -> @Sendable (Result<JSONValue, HostError>) -> Bool {
        { if case .failure(let e) = $0 { e.code == .rejected && e.rejectReason == reason } else { false } }
    }
    static let object: @Sendable (Result<JSONValue, HostError>) -> Bool = { (try? $0.get())?.objectValue != nil }

    /// Cycle A (refresh launched and completed), cycle B (processing launched and
    /// expired), cycle C (refresh launched, safety timer fires).
    static let steps: [Step] = [
        invoke(StartKeepalive.name, .object([:]), "null", null),
        invoke(WaitForCancel.name, nil, "rejected completed", rejected(.completed)),
        os(OSLaunch.name, ["identifier": .string(refresh)], "launch result", object),
        invoke(CompleteBgTask.name, ["success": true], "null", null),
        invoke(WaitForCancel.name, nil, "rejected listenerCancelled", rejected(.listenerCancelled)),
        invoke(CancelCancelListener.name, nil, "null", null),
        invoke(StopKeepalive.name, nil, "null", null),

        invoke(StartKeepalive.name, ["iosProcessingSafetyTimeoutSecs": 5], "null", null),
        invoke(WaitForCancel.name, nil, "resolved (expiration)", null),
        os(OSLaunch.name, ["identifier": .string(processing)], "launch result", object),
        os(OSExpire.name, ["identifier": .string(processing)], "null", null),
        invoke(WaitForCancel.name, nil, "rejected stopped", rejected(.stopped)),
        invoke(StopKeepalive.name, nil, "null", null),

        invoke(StartKeepalive.name, ["iosSafetyTimeoutSecs": 1], "null", null),
        invoke(WaitForCancel.name, nil, "resolved (safety timer)", null),
        os(OSLaunch.name, ["identifier": .string(refresh)], "launch result", object),
        os(OSAdvanceTime.name, ["seconds": 1], "{now}", object),
        invoke(CompleteBgTask.name, ["success": false], "null", null),
        invoke(StopKeepalive.name, nil, "null", null),
    ]
    static let cycleStarts: Set<Int> = [0, 7, 13]
}
