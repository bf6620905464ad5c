import HostProtocol

/// One step of a fuzz case: a message to the plugin.
public struct FuzzStep: Sendable, Hashable {
    /// The message.
    public var input: ReferenceModel.Input

    /// Creates a step.
    public init(_ input: ReferenceModel.Input) {
        self.input = input
    }

    /// A request step.
    public static func request(_ id: RequestID, _ method: String, _ params: JSONValue? = nil) -> FuzzStep {
        FuzzStep(.request(Request(id: id, method: method, params: params)))
    }

    /// The message as JSON.
    public var json: JSONValue {
        switch input {
        case .request(let r): r.json
        case .notification(let n): n.json
        }
    }

    /// The method name.
    public var method: String {
        switch input {
        case .request(let r): r.method
        case .notification(let n): n.method
        }
    }

    /// The request id, nil for a notification.
    public var id: RequestID? {
        if case .request(let r) = input { return r.id }
        return nil
    }

    /// The step with another params value.
    func with(params: JSONValue?) -> FuzzStep {
        switch input {
        case .request(var r):
            r.params = params
            return FuzzStep(.request(r))
        case .notification(var n):
            n.params = params
            return FuzzStep(.notification(n))
        }
    }

    var params: JSONValue? {
        switch input {
        case .request(let r): r.params
        case .notification(let n): n.params
        }
    }

    /// Reads a step back from its JSON (trace files).
    package init?(json: JSONValue) {
        switch Message.classify(json) {
        case .request(let r): self.init(.request(r))
        case .notification(let n): self.init(.notification(n))
        default: return nil
        }
    }

    /// The one-line description used in reports.
    public var summary: String {
        let p = params.map { " " + $0.description } ?? ""
        switch input {
        case .request(let r): return "#\(r.id) \(r.method)\(p)"
        case .notification(let n): return "(notification) \(n.method)\(p)"
        }
    }
}
