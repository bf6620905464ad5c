import HostProtocol

/// The reference model's view of a plugin and its emulated OS, kept from the
/// contract's text alone (sections 3 to 6), independently of the plugin's code.
struct ModelState: Hashable, Sendable {
    struct PendingRequest: Hashable, Sendable {
        var kind: TaskKind
        var earliest: VirtualTime
        var power: Bool
        var network: Bool

        func json(_ identifier: String) -> JSONValue {
            [
                "identifier": .string(identifier), "kind": .string(kind.rawValue), "earliestBeginDate": earliest.json,
                "requiresExternalPower": .bool(power), "requiresNetworkConnectivity": .bool(network),
            ]
        }
    }

    struct Task: Hashable, Sendable {
        var identifier: String
        var kind: TaskKind
        var launchedAt: VirtualTime
        var expired = false
    }

    struct Timer: Hashable, Sendable {
        var deadline: VirtualTime
        var valid: Bool
    }

    var now = VirtualTime.zero
    var config = PluginConfig.defaults
    var conditions = Conditions.defaults
    var pending: [String: PendingRequest] = [:]
    var task: Task?
    /// The pending cancel invoke's request id, when there is one.
    var cancelInvoke: RequestID?
    var timer: Timer?
    var launched = 0
    var completed = 0
    var expired = 0
    var dropped = 0

    /// Pending requests in identifier order (UTF-8 bytes).
    var sortedPending: [(String, PendingRequest)] {
        pending.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
