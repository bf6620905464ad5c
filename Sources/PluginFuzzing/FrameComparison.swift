import HostProtocol

/// How replies are compared with the model's predictions.
///
/// Codes, `data`, ids, results, events and their order are compared exactly.
/// Two things are left out, because the contract does not fix them: the text of
/// error messages, and the members of `plugin/state` beyond the contract's
/// (`counters.dropped`, `cancelInvokePending`, `notificationAuthorizationRequests`).
public enum FrameComparison {
    /// The frame with the parts the contract does not fix removed.
    public static func normalize(_ frame: JSONValue) -> JSONValue {
        if case .array(let replies) = frame { return .array(replies.map(normalize)) }  // a batch's reply
        guard case .object(var o) = frame else { return frame }
        if case .object(var error)? = o["error"] {
            error.removeValue(forKey: "message")
            o["error"] = .object(error)
        }
        if case .object(var result)? = o["result"], result["counters"] != nil, result["registered"] != nil {
            result.removeValue(forKey: "cancelInvokePending")
            result.removeValue(forKey: "notificationAuthorizationRequests")
            if case .object(var counters)? = result["counters"] {
                counters.removeValue(forKey: "dropped")
                result["counters"] = .object(counters)
            }
            o["result"] = .object(result)
        }
        return .object(o)
    }

    /// The first difference between expected and actual frames.
    public struct Mismatch: Sendable, Hashable {
        /// Index in the frame lists.
        public let index: Int
        /// The frame the model expected there (nil: none).
        public let expected: JSONValue?
        /// The frame the plugin wrote there (nil: none).
        public let actual: JSONValue?

        /// What kind of difference, for grouping findings: which method's reply or
        /// which event, and what differs: `expected result, got error -32602`, or, for two
        /// frames of one kind, `result differs from the model's` (the explanation names the
        /// members that differ; the signature stays the same while shrinking).
        public var signature: String {
            func what(_ v: JSONValue?) -> String {
                guard let v else { return "nothing" }
                if let m = v["method"]?.stringValue { return "event \(m)" }
                if let e = v["error"] {
                    let reason = e["data"]?["reason"]?.stringValue.map { " \($0)" } ?? ""
                    return "error \(e["code"]?.description ?? "?")\(reason)"
                }
                if v["result"] != nil { return "result" }
                return "frame"
            }
            let (e, a) = (what(expected), what(actual))
            guard e == a, expected != nil else { return "expected \(e), got \(a)" }
            return "\(e) differs from the model's"
        }
    }

    /// Compares normalized frames; nil when equal.
    public static func firstMismatch(expected: [JSONValue], actual: [JSONValue]) -> Mismatch? {
        for i in 0..<max(expected.count, actual.count) {
            let e = i < expected.count ? normalize(expected[i]) : nil
            let a = i < actual.count ? normalize(actual[i]) : nil
            if e != a { return Mismatch(index: i, expected: e, actual: a) }
        }
        return nil
    }

    /// The keys (dotted paths) where two JSON values differ.
    public static func differingPaths(_ a: JSONValue, _ b: JSONValue, prefix: String = "") -> [String] {
        if case .object(let x) = a, case .object(let y) = b {
            return Set(x.keys).union(y.keys).sorted().flatMap { k -> [String] in
                let p = prefix.isEmpty ? k : prefix + "." + k
                guard let xv = x[k], let yv = y[k] else { return [p] }
                return differingPaths(xv, yv, prefix: p)
            }
        }
        return a == b ? [] : [prefix.isEmpty ? "(value)" : prefix]
    }
}
