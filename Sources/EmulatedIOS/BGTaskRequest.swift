import HostProtocol

/// The emulated `BGTaskRequest`: an identifier and an earliest begin date.
package class BGTaskRequest {
    package let identifier: String
    /// nil means "as soon as possible".
    package var earliestBeginDate: VirtualTime?
    /// `--os ios`: the system's plan for it, drawn when it is accepted (system-side data).
    package var plan: LaunchPlan?

    package init(identifier: String) {
        self.identifier = identifier
    }

    package var kind: TaskKind { .refresh }

    /// How `os/pendingTaskRequests` and `os/requestSubmitted` show it.
    package var info: TaskRequestInfo {
        TaskRequestInfo(identifier: identifier, kind: kind, earliestBeginDate: earliestBeginDate)
    }
}

/// The emulated `BGAppRefreshTaskRequest`.
package final class BGAppRefreshTaskRequest: BGTaskRequest {}

/// The emulated `BGProcessingTaskRequest`, with its two constraints.
package final class BGProcessingTaskRequest: BGTaskRequest {
    package var requiresExternalPower = false
    package var requiresNetworkConnectivity = false

    package override var kind: TaskKind { .processing }

    package override var info: TaskRequestInfo {
        TaskRequestInfo(
            identifier: identifier, kind: .processing, earliestBeginDate: earliestBeginDate,
            requiresExternalPower: requiresExternalPower, requiresNetworkConnectivity: requiresNetworkConnectivity)
    }

    /// Whether the device's conditions allow it to start.
    package func constraintsMet(by conditions: Conditions) -> Bool {
        (!requiresExternalPower || conditions.externalPower)
            && (!requiresNetworkConnectivity || conditions.networkConnected)
    }
}
