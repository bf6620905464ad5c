import HostProtocol
import RustSide

/// Guided search's coverage (issue 25): after every action, the system's abstract state, the
/// pair the issue names (the plugin's state and the Rust side's), packed into 64 bits; a
/// coverage point is one transition, the state before an action, the action's kind and the
/// state after it. A case that reaches a point no earlier case of its job reached is kept in
/// the job's ``FuzzCorpus`` and later cases are made from it (`plugin-host fuzz --guided`).
///
/// The abstraction keeps what the known findings turn on and drops what only counts:
/// - the plugin: the running task's kind, whether a cancel invoke is pending, whether a
///   safety timer is armed, the pending requests (0, 1, 2, 3 or more), whether any violation,
///   drop, watchdog kill or crash was counted; under `--os ios` the app's phase and state and
///   the tasks running (0, 1, 2 or more);
/// - the Rust side: the service's state, whether a run holds its token, whether the last
///   run failed; the bridge's blocking calls (how many, and which commands), the runs queued
///   for a pool thread, the pool's threads in use (none, one, some, all but one, all) and the
///   cancel listeners still waiting.
///
/// Packing by hand rather than `Hasher` keeps the points the same from process to process
/// (Swift seeds `Hasher` per process), so one job's corpus, and so its cases, are a function
/// of the run's seed.
extension SystemCase {
    /// The system's abstract state after an action.
    static func abstractState(
        plugin state: PluginStateSnapshot, status: ServiceStatus, bridge: BridgeSnapshot
    ) -> UInt64 {
        var bits = BitPacker()
        bits.put(state.activeTask.map { $0.kind == .refresh ? 1 : 2 } ?? 0, width: 2)
        bits.put(state.pendingCancelInvoke != nil, state.safetyTimer != nil)
        bits.put(min(state.pendingRequests.count, 3), width: 2)
        let c = state.counters
        bits.put(c.violations > 0, (c.dropped ?? 0) > 0, (c.watchdogKills ?? 0) > 0, (c.crashes ?? 0) > 0)
        if let ios = state.ios {
            bits.put(Self.index(ios.app.phase, in: [.launching, .running, .notRunning]), width: 2)
            bits.put(
                ios.appState.map { Self.index($0, in: [.foreground, .background, .suspended, .notRunning]) + 1 } ?? 0,
                width: 3)
            bits.put(min(ios.runningTasks.count, 2), width: 2)
        }
        bits.put(Self.index(status.state, in: ServiceState.allCases), width: 2)
        bits.put(status.isRunning, status.lastError != nil)
        bits.put(min(bridge.calls.count, 3), width: 2)
        for method in Self.bridgeMethods { bits.put(bridge.calls.contains { $0.method == method }) }
        bits.put(min(bridge.calls.count { $0.method == WaitForCancel.name }, 3), width: 2)
        bits.put(min(bridge.queued.count, 2), width: 2)
        bits.put(Self.poolBucket(busy: bridge.poolBusy, capacity: bridge.poolCapacity), width: 3)
        bits.put(min(bridge.listening.count, 2), width: 2)
        return bits.value
    }

    /// A coverage point: the transition from `before` to `after` by an action of `kind`.
    static func coveragePoint(from before: UInt64, kind: SystemCaseGenerator.ActionKind, to after: UInt64) -> UInt64 {
        // (Each state fits in well under 48 bits; mixing the first keeps the pair apart.)
        var mix = SplitMix64(seed: before &* 31 &+ UInt64(kind.rawValue))
        return mix.next() ^ after
    }

    /// The commands whose blocking calls the abstraction tells apart.
    private static let bridgeMethods = [
        StartKeepalive.name, StopKeepalive.name, WaitForCancel.name, CompleteBgTask.name, CancelCancelListener.name,
    ]

    /// The pool's use in five buckets: none, one, some, all but one, all.
    private static func poolBucket(busy: Int, capacity: Int) -> Int {
        if busy >= capacity { return 4 }
        if busy == capacity - 1 { return 3 }
        return min(busy, 2)
    }

    private static func index<T: Equatable>(_ value: T, in all: [T]) -> Int { all.firstIndex(of: value) ?? 0 }
}

/// Fields packed into 64 bits, first to last.
private struct BitPacker {
    private(set) var value: UInt64 = 0
    private var used: UInt64 = 0

    mutating func put(_ field: Int, width: UInt64) {
        precondition(used + width <= 64, "the abstract state has outgrown 64 bits")
        value |= (UInt64(field) & ((1 << width) - 1)) << used
        used += width
    }

    mutating func put(_ flags: Bool...) {
        for flag in flags { put(flag ? 1 : 0, width: 1) }
    }
}
