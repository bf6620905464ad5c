import HostProtocol

/// The `plugin/state` snapshot a check expects: the contract's members only (a
/// plugin may add others), starting from a freshly started plugin's values.
/// `pendingRequests` may come in any order and `registered` in any accepted shape:
/// the contract fixes neither.
struct ConformanceState: Sendable {
    /// `now`.
    var now = "0"
    /// `clock`.
    var clock = "virtual"
    /// `profile`.
    var profile: Profile
    /// `activeTask` (JSON text).
    var activeTask = "null"
    /// `pendingCancelInvoke`: the pending request's id (JSON text) or `null`.
    var pendingCancelInvoke = "null"
    /// `safetyTimer` deadline, nil for `null`.
    var safetyTimer: String?
    /// `config`'s six values (JSON texts).
    var safetyTimeout = "28"
    var processingTimeout = "null"
    var refreshMinutes = "15"
    var processingMinutes = "15"
    var externalPower = false
    var networkConnectivity = false
    /// `pendingRequests` (``ConformanceCatalogue/requestInfo(_:at:power:network:identifier:)`` texts), in any order.
    var pendingRequests: [String] = []
    /// `registered`: identifier → kind; the two registrations of the default bundle id.
    var registered = ConformanceState.registrations(bundle: ConformanceCatalogue.bundleID)
    /// `conditions` (JSON text).
    var conditions = ConformanceCatalogue.conditions()
    /// `counters`.
    var launched = 0, completed = 0, expired = 0, violations = 0

    /// A fresh plugin's state under `profile`.
    init(profile: Profile) {
        self.profile = profile
    }

    /// A fresh plugin's state, then `change` applied.
    static func with(_ profile: Profile, _ change: (inout ConformanceState) -> Void) -> ConformanceState {
        var s = ConformanceState(profile: profile)
        change(&s)
        return s
    }

    /// The two registrations for a bundle id: `<bundle>.bg-refresh` and `<bundle>.bg-processing`.
    static func registrations(bundle: String) -> [String: String] {
        ["\(bundle).bg-refresh": "refresh", "\(bundle).bg-processing": "processing"]
    }

    /// `activeTask` for a task launched at `at`.
    static func active(_ kind: ConformanceCatalogue.Kind, at: String) -> String {
        #"{"identifier":"\#(kind.identifier)","kind":"\#(kind.rawValue)","launchedAt":\#(at)}"#
    }

    /// The snapshot's fixed members as compact JSON with sorted keys (without `registered`).
    var json: String {
        let timer = safetyTimer.map { #"{"deadline":\#($0)}"# } ?? "null"
        let config =
            #"{"iosEarliestProcessingBeginMinutes":\#(processingMinutes),"#
            + #""iosEarliestRefreshBeginMinutes":\#(refreshMinutes),"#
            + #""iosProcessingSafetyTimeoutSecs":\#(processingTimeout),"#
            + #""iosRequiresExternalPower":\#(externalPower),"#
            + #""iosRequiresNetworkConnectivity":\#(networkConnectivity),"iosSafetyTimeoutSecs":\#(safetyTimeout)}"#
        let counters =
            #"{"completed":\#(completed),"expired":\#(expired),"launched":\#(launched),"violations":\#(violations)}"#
        return
            #"{"activeTask":\#(activeTask),"clock":"\#(clock)","conditions":\#(conditions),"config":\#(config),"#
            + #""counters":\#(counters),"now":\#(now),"pendingCancelInvoke":\#(pendingCancelInvoke),"#
            + #""pendingRequests":[\#(pendingRequests.joined(separator: ","))],"profile":"\#(profile.rawValue)","#
            + #""safetyTimer":\#(timer)}"#
    }

    /// The response to a `plugin/state` request with this snapshot.
    func reply(_ id: ConformanceCatalogue.ID) -> Pattern {
        let snapshot = Pattern(json: json)
            .replacing("pendingRequests", with: .unordered(pendingRequests.map(Pattern.init(json:))))
            .replacing("registered", with: .registrations(registered))
        return ConformanceCatalogue.result(id, snapshot)
    }
}
