import HostProtocol

/// The ids of requests accepted and not answered yet, compared byte for byte
/// (``RequestID``'s `==` and hash compare the ids' JSON texts: `1`, `1.0` and `"1"`
/// are three ids).
///
/// A multiset: an id counts once per request holding it (two only under the
/// `allow-duplicate-id` fault). Under `--dispatch serial` it holds at most a stored
/// `waitForCancel`; under `--dispatch tauri` every member of a batch stays pending
/// until its job runs, so a batch of n requests holds n ids at once: lookups,
/// insertions and removals are constant time (an array made a large batch quadratic).
///
/// ```swift
/// var pending = PendingIDs()
/// pending.insert(.int(7))
/// pending.contains(.int(7))        // true
/// pending.contains(.string("7"))   // false
/// pending.remove(.int(7))
/// ```
struct PendingIDs {
    private var counts: [RequestID: Int] = [:]

    /// Whether a request with `id` is pending.
    func contains(_ id: RequestID) -> Bool {
        !counts.isEmpty && counts[id] != nil
    }

    /// A request with `id` was accepted and is not answered yet.
    mutating func insert(_ id: RequestID) {
        counts[id, default: 0] += 1
    }

    /// A request with `id` was answered (or dropped); nothing when none is pending.
    mutating func remove(_ id: RequestID) {
        guard !counts.isEmpty, let count = counts[id] else { return }
        counts[id] = count > 1 ? count - 1 : nil
    }

    /// Whether nothing is pending.
    var isEmpty: Bool { counts.isEmpty }
}
