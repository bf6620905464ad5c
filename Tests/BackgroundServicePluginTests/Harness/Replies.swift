import HostProtocol
import HostTestSupport
import Testing

/// Reading replies as values, for checks that do not need whole lines.
enum Replies {
    static func json(_ line: String) -> JSONValue? { try? JSONParser.parse(Array(line.utf8)) }

    /// The reply to request `id` among `lines` (event lines, which start with the sorted keys
    /// `{"jsonrpc":"2.0","method"`, are skipped unparsed: a run can write hundreds of thousands).
    static func find(_ id: Int, in lines: [String]) -> JSONValue? {
        lines.lazy.filter { !$0.hasPrefix(#"{"jsonrpc":"2.0","method""#) }.compactMap(json)
            .first { $0["id"]?.int64Value == Int64(id) && $0["method"] == nil }
    }

    /// The `result` of the reply to request `id`.
    static func result(_ id: Int, in lines: [String]) -> JSONValue? { find(id, in: lines)?["result"] }

    /// The `plugin/state` snapshot answered to request `id`.
    static func state(_ id: Int, in lines: [String]) throws -> PluginStateSnapshot {
        try PluginStateSnapshot(json: try #require(result(id, in: lines)))
    }

    /// The `os/explain` answer to request `id`.
    static func explanation(_ id: Int, in lines: [String]) throws -> LaunchExplanation {
        try LaunchExplanation(json: try #require(result(id, in: lines)))
    }

    /// The events named `method`, as params.
    static func events(_ method: String, in lines: [String]) -> [JSONValue] {
        lines.compactMap(json).filter { $0["method"]?.stringValue == method }.compactMap { $0["params"] }
    }

    /// The index of the first line that contains `text`.
    static func index(of text: String, in lines: [String]) -> Int? { lines.firstIndex { $0.contains(text) } }
}
