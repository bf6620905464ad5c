import HostTestSupport

/// The exact `plugin/state` reply, built from the fields a test cares about;
/// every other field has its freshly-started value.
struct StateLine {
    var now = "0"
    var clock = "virtual"
    var profile = "seed"
    /// Raw JSON: `null` or `{"identifier":…,"kind":…,"launchedAt":…}`.
    var activeTask = "null"
    /// Raw JSON id of the pending `waitForCancel`, or nil for none.
    var pendingCancelInvoke: String?
    /// The safety timer's deadline, or nil for none.
    var safetyTimer: String?
    var config = Config()
    /// Raw JSON objects, already sorted by identifier.
    var pendingRequests: [String] = []
    var registered = [
        #"{"identifier":"\#(processingID)","kind":"processing"}"#, #"{"identifier":"\#(refreshID)","kind":"refresh"}"#,
    ]
    var autoLaunch = false
    var backgroundRefreshStatus = "available"
    var externalPower = false
    var networkConnected = true
    var launched = 0, completed = 0, expired = 0, violations = 0, dropped = 0

    struct Config {
        var processingMinutes = "15"
        var refreshMinutes = "15"
        var processingSafety = "null"
        var power = false
        var network = false
        var safety = "28"

        var json: String {
            #"{"iosEarliestProcessingBeginMinutes":\#(processingMinutes),"#
                + #""iosEarliestRefreshBeginMinutes":\#(refreshMinutes),"#
                + #""iosProcessingSafetyTimeoutSecs":\#(processingSafety),"iosRequiresExternalPower":\#(power),"#
                + #""iosRequiresNetworkConnectivity":\#(network),"iosSafetyTimeoutSecs":\#(safety)}"#
        }
    }

    /// Both requests of one schedule-next made at `earliest` (processing may differ).
    mutating func scheduled(
        _ refreshAt: String, _ processingAt: String? = nil, power: Bool = false, network: Bool = false
    ) {
        pendingRequests = [
            requestJSON(processingID, processingAt ?? refreshAt, power: power, network: network),
            requestJSON(refreshID, refreshAt),
        ]
    }

    /// Marks a task as active.
    mutating func active(_ identifier: String, at: String) {
        activeTask = #"{"identifier":"\#(identifier)","kind":"\#(kindOf(identifier))","launchedAt":\#(at)}"#
    }

    var resultJSON: String {
        let conditions =
            #"{"autoLaunch":\#(autoLaunch),"backgroundRefreshStatus":"\#(backgroundRefreshStatus)","#
            + #""externalPower":\#(externalPower),"networkConnected":\#(networkConnected)}"#
        let counters =
            #"{"completed":\#(completed),"dropped":\#(dropped),"expired":\#(expired),"launched":\#(launched),"#
            + #""violations":\#(violations)}"#
        let timer = safetyTimer.map { #"{"deadline":\#($0)}"# } ?? "null"
        return
            #"{"activeTask":\#(activeTask),"cancelInvokePending":\#(pendingCancelInvoke != nil),"#
            + #""clock":"\#(clock)","conditions":\#(conditions),"config":\#(config.json),"#
            + #""counters":\#(counters),"notificationAuthorizationRequests":1,"now":\#(now),"#
            + #""pendingCancelInvoke":\#(pendingCancelInvoke ?? "null"),"#
            + #""pendingRequests":[\#(pendingRequests.joined(separator: ","))],"profile":"\#(profile)","#
            + #""registered":[\#(registered.joined(separator: ","))],"safetyTimer":\#(timer)}"#
    }

    /// The reply line to `plugin/state` request `id`.
    func line(_ id: Int) -> String { ok(id, resultJSON) }
}
