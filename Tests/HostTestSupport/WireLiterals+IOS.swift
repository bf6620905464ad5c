/// Builders for `--os ios` scripts and their expected lines.

/// The flags of an `--os ios` run with events on from the start; `legacy`: under
/// `--ios-defaults legacy`, the model before issue 23 (no app states, use ignored), for tests
/// that pin a rule of that model without the suspension and usage spacing the device adds.
package func iosFlags(seed: UInt64 = 0, legacy: Bool = false) -> [String] {
    ["--os", "ios", "--os-seed", "\(seed)", "--events"] + (legacy ? ["--ios-defaults", "legacy"] : [])
}

/// A policy without randomness: launches exactly at `earliestBeginDate`, refresh
/// budgets of exactly `refreshBudgetSecs`.
package let calmPolicy = #"{"refreshDelayMaxSecs":0,"processingDelayMaxSecs":0,"refreshEarlyExpiryChance":0}"#

/// The calm policy, one task at a time (`maxConcurrentTasks` 1: the seed's assumption), for
/// tests whose subject is not two tasks running at once.
package let calmOneTaskPolicy =
    #"{"refreshDelayMaxSecs":0,"processingDelayMaxSecs":0,"refreshEarlyExpiryChance":0,"maxConcurrentTasks":1}"#

package func setPolicy(_ id: Int, _ params: String) -> String { req(id, "os/setPolicy", params) }
package func terminate(_ id: Int, _ reason: String) -> String { req(id, "os/terminate", #"{"reason":"\#(reason)"}"#) }
package func openApp(_ id: Int) -> String { req(id, "os/openApp") }
package func explain(_ id: Int, _ identifier: String) -> String {
    req(id, "os/explain", #"{"identifier":"\#(identifier)"}"#)
}

package func evExpired(_ identifier: String, at: String, cause: String) -> String {
    event("os/taskExpired", #"{"at":\#(at),"cause":"\#(cause)","identifier":"\#(identifier)"}"#)
}

package func evAppLaunched(_ cause: String, at: String, identifier: String? = nil) -> String {
    let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
    return event("os/appLaunched", #"{"at":\#(at),"cause":"\#(cause)"\#(id)}"#)
}

package func evAppTerminated(_ reason: String, at: String, identifier: String? = nil) -> String {
    let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
    return event("os/appTerminated", #"{"at":\#(at)\#(id),"reason":"\#(reason)"}"#)
}

/// `os/appTerminated {reason: "crash"}` with its `NSInternalInconsistencyException` and Apple's `message`.
package func evCrashed(at: String, identifier: String? = nil, message: String) -> String {
    let id = identifier.map { #","identifier":"\#($0)""# } ?? ""
    return event(
        "os/appTerminated",
        #"{"at":\#(at),"exception":"NSInternalInconsistencyException"\#(id),"message":"\#(message)","reason":"crash"}"#)
}

/// The policy's answer to `os/setPolicy` with the defaults changed by `changes` (raw members);
/// `legacy`: the defaults of `--ios-defaults legacy` (no `appStates`, no `usageScheduling`).
package func policyJSON(_ changes: [String: String] = [:], legacy: Bool = false) -> String {
    var members: [String: String] = legacy ? [:] : ["appStates": "true", "usageScheduling": "true"]
    members.merge([
        "crashOnMisuse": "true", "energyBudgetLaunches": "12", "minLaunchSpacingSecs": "600",
        "pluginLoadsLate": "false", "multipleScenes": "false",
        "processingBudgetSecs": "600", "processingDelayMaxSecs": "3600", "processingDelayMinSecs": "0",
        "refreshBudgetSecs": "30", "refreshDelayMaxSecs": "1800", "refreshDelayMinSecs": "0",
        "refreshEarlyExpiryChance": "0.2", "refreshEarlyExpiryMaxSecs": "5", "refreshEarlyExpiryMinSecs": "2",
        "watchdogGraceSecs": "5",
    ]) { _, new in new }
    members.merge(changes) { _, new in new }
    return "{" + members.keys.sorted().map { #""\#($0)":\#(members[$0]!)"# }.joined(separator: ",") + "}"
}

/// The calm policy's answer under `--ios-defaults legacy`.
package let calmPolicyJSON = policyJSON(
    ["refreshDelayMaxSecs": "0", "processingDelayMaxSecs": "0", "refreshEarlyExpiryChance": "0"], legacy: true)
