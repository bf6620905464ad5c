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
    /// The batch being applied (its reply collected slot by slot), if any.
    var reading: BatchReply?
    /// A batch whose reply waits for the pending `waitForCancel` (contract section 2).
    var held: BatchReply?
    /// Where the pending `waitForCancel`'s answer goes when it is in a batch.
    var cancelSlot: CancelSlot?

    /// One batch's reply: a slot per member, in request order; written as one array once
    /// no slot waits any more, without the members that get no answer.
    struct BatchReply: Hashable, Sendable {
        enum Slot: Hashable, Sendable {
            case waiting
            case answered(JSONValue)
            /// A notification, or a request dropped unanswered.
            case none
        }

        var slots: [Slot]
    }

    /// The pending `waitForCancel`'s slot: in the batch being applied, or in the held one.
    enum CancelSlot: Hashable, Sendable {
        case reading(Int)
        case held(Int)
    }

    /// Pending requests in identifier order (UTF-8 bytes).
    var sortedPending: [(String, PendingRequest)] {
        pending.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
