import HostProtocol

/// The emulated `BGTaskRequest`: an identifier and an earliest begin date.
class BGTaskRequest {
    let identifier: String
    /// nil means "as soon as possible".
    var earliestBeginDate: VirtualTime?
    /// `--os ios`: the system's plan for it, drawn when it is accepted (system-side data).
    var plan: LaunchPlan?

    init(identifier: String) {
        self.identifier = identifier
    }

    var kind: TaskKind { .refresh }

    /// How `os/pendingTaskRequests` and `os/requestSubmitted` show it.
    var info: TaskRequestInfo {
        TaskRequestInfo(identifier: identifier, kind: kind, earliestBeginDate: earliestBeginDate)
    }
}

/// The emulated `BGAppRefreshTaskRequest`.
final class BGAppRefreshTaskRequest: BGTaskRequest {}

/// The emulated `BGProcessingTaskRequest`, with its two constraints.
final class BGProcessingTaskRequest: BGTaskRequest {
    var requiresExternalPower = false
    var requiresNetworkConnectivity = false

    override var kind: TaskKind { .processing }

    override var info: TaskRequestInfo {
        TaskRequestInfo(
            identifier: identifier, kind: .processing, earliestBeginDate: earliestBeginDate,
            requiresExternalPower: requiresExternalPower, requiresNetworkConnectivity: requiresNetworkConnectivity)
    }

    /// Whether the device's conditions allow it to start.
    func constraintsMet(by conditions: Conditions) -> Bool {
        (!requiresExternalPower || conditions.externalPower)
            && (!requiresNetworkConnectivity || conditions.networkConnected)
    }
}
