import HostProtocol

/// One step of a fuzz case: a message to the plugin, or a batch of them with the
/// interleaving schedule it runs under (`--dispatch tauri`).
public struct FuzzStep: Sendable, Hashable {
    /// The message.
    public var input: ReferenceModel.Input
    /// For a batch: the queue to run at each interleaving decision, installed with
    /// `plugin/dispatchSchedule` just before it (past its end: `ipc`). After a run it is
    /// exactly the list the plugin took, so a trace never depends on the plugin's PRNG.
    public var schedule: [DispatchQueueName]

    /// Creates a step.
    public init(_ input: ReferenceModel.Input, schedule: [DispatchQueueName] = []) {
        self.input = input
        self.schedule = schedule
    }

    /// A request step.
    public static func request(_ id: RequestID, _ method: String, _ params: JSONValue? = nil) -> FuzzStep {
        FuzzStep(.request(Request(id: id, method: method, params: params)))
    }

    /// The message as JSON.
    public var json: JSONValue { Self.json(input) }

    private static func json(_ input: ReferenceModel.Input) -> JSONValue {
        switch input {
        case .request(let r): r.json
        case .notification(let n): n.json
        case .batch(let members): .array(members.map(json))
        }
    }

    /// The method name; for a batch, its members' in brackets (`[completeBgTask,os/expire]`).
    public var method: String { Self.method(input) }

    private static func method(_ input: ReferenceModel.Input) -> String {
        switch input {
        case .request(let r): r.method
        case .notification(let n): n.method
        case .batch(let members): "[" + members.map(method).joined(separator: ",") + "]"
        }
    }

    /// The request id, nil for a notification or a batch.
    public var id: RequestID? {
        if case .request(let r) = input { return r.id }
        return nil
    }

    /// A batch's members, nil for a single message.
    public var members: [ReferenceModel.Input]? {
        if case .batch(let members) = input { return members }
        return nil
    }

    /// The step with another params value (a batch is left as it is).
    func with(params: JSONValue?) -> FuzzStep {
        switch input {
        case .request(var r):
            r.params = params
            return FuzzStep(.request(r))
        case .notification(var n):
            n.params = params
            return FuzzStep(.notification(n))
        case .batch: return self
        }
    }

    var params: JSONValue? {
        switch input {
        case .request(let r): r.params
        case .notification(let n): n.params
        case .batch: nil
        }
    }

    /// Reads a step back from its JSON (trace files): `send`, and `schedule` for a batch.
    package init?(json: JSONValue, schedule: JSONValue? = nil) {
        guard let input = Self.input(json) else { return nil }
        let names = schedule?.arrayValue?.compactMap { $0.stringValue.flatMap(DispatchQueueName.init(rawValue:)) }
        self.init(input, schedule: names ?? [])
    }

    private static func input(_ json: JSONValue) -> ReferenceModel.Input? {
        if case .array(let members) = json {
            var inputs: [ReferenceModel.Input] = []
            for m in members {
                guard let i = input(m) else { return nil }
                inputs.append(i)
            }
            return .batch(inputs)
        }
        switch Message.classify(json) {
        case .request(let r): return .request(r)
        case .notification(let n): return .notification(n)
        default: return nil
        }
    }

    /// The one-line description used in reports.
    public var summary: String {
        guard case .batch(let members) = input else { return Self.summary(input) }
        let schedule = schedule.isEmpty ? "" : " schedule " + schedule.map(\.rawValue).joined(separator: ",")
        return "batch [" + members.map(Self.summary).joined(separator: ", ") + "]" + schedule
    }

    private static func summary(_ input: ReferenceModel.Input) -> String {
        func p(_ params: JSONValue?) -> String { params.map { " " + $0.description } ?? "" }
        switch input {
        case .request(let r): return "#\(r.id) \(r.method)\(p(r.params))"
        case .notification(let n): return "(notification) \(n.method)\(p(n.params))"
        case .batch: return FuzzStep(input).summary
        }
    }
}
