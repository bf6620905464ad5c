import HostProtocol
import Testing

/// Builders for `--os ios` scripts and their expected lines.

/// The flags of an `--os ios` run with events on from the start.
func iosFlags(seed: UInt64 = 0) -> [String] { ["--os", "ios", "--os-seed", "\(seed)", "--events"] }

/// A policy without randomness: launches exactly at `earliestBeginDate`, refresh
/// budgets of exactly `refreshBudgetSecs`.
let calmPolicy = #"{"refreshDelayMaxSecs":0,"processingDelayMaxSecs":0,"refreshEarlyExpiryChance":0}"#

func setPolicy(_ id: Int, _ params: String) -> String { req(id, "os/setPolicy", params) }
func terminate(_ id: Int, _ reason: String) -> String { req(id, "os/terminate", #"{"reason":"\#(reason)"}"#) }
func openApp(_ id: Int) -> String { req(id, "os/openApp") }
func explain(_ id: Int, _ identifier: String) -> String { req(id, "os/explain", #"{"identifier":"\#(identifier)"}"#) }

func evExpired(_ identifier: String, at: String, cause: String) -> String {
    event("os/taskExpired", #"{"at":\#(at),"cause":"\#(cause)","identifier":"\#(identifier)"}"#)
}

func evAppLaunched(_ cause: String, at: String, identifier: String? = nil) -> String {
    let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
    return event("os/appLaunched", #"{"at":\#(at),"cause":"\#(cause)"\#(id)}"#)
}

func evAppTerminated(_ reason: String, at: String, identifier: String? = nil) -> String {
    let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
    return event("os/appTerminated", #"{"at":\#(at)\#(id),"reason":"\#(reason)"}"#)
}

/// The policy's answer to `os/setPolicy` with the defaults changed by `changes` (raw members).
func policyJSON(_ changes: [String: String] = [:]) -> String {
    var members: [String: String] = [
        "energyBudgetLaunches": "12", "minLaunchSpacingSecs": "600", "pluginLoadsLate": "false",
        "processingBudgetSecs": "600", "processingDelayMaxSecs": "3600", "processingDelayMinSecs": "0",
        "refreshBudgetSecs": "30", "refreshDelayMaxSecs": "1800", "refreshDelayMinSecs": "0",
        "refreshEarlyExpiryChance": "0.2", "refreshEarlyExpiryMaxSecs": "5", "refreshEarlyExpiryMinSecs": "2",
        "watchdogGraceSecs": "5",
    ]
    members.merge(changes) { _, new in new }
    return "{" + members.keys.sorted().map { #""\#($0)":\#(members[$0]!)"# }.joined(separator: ",") + "}"
}

/// The calm policy's answer.
let calmPolicyJSON = policyJSON([
    "refreshDelayMaxSecs": "0", "processingDelayMaxSecs": "0", "refreshEarlyExpiryChance": "0",
])

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
