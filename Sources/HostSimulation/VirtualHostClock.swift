import HostProtocol
import RustSide
import Synchronization

/// A host clock that moves only when told to: the host-side twin of the
/// plugin's virtual clock.
///
/// Sleepers wake when ``advance(to:)`` reaches their deadline, in deadline order
/// (ties in the order they went to sleep). Waking resumes their tasks on their
/// executors; under a ``ManualExecutor`` nothing runs until it is drained, so the
/// simulation decides exactly when host work happens.
public final class VirtualHostClock: HostClock {
    private struct Sleeper {
        let deadline: VirtualTime
        let sequence: UInt64
        /// The app process the sleeper belongs to (0: none); see ``endGroup(_:)``.
        let group: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = VirtualTime.zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextSequence: UInt64 = 0
        /// Groups whose sleepers are woken with an error, now and from now on.
        var endedGroups: Set<UInt64> = []
        /// Groups whose app process is suspended: their sleepers do not wake (``freezeGroup(_:)``).
        var frozenGroups: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// Starts at 0.
    public init() {}

    /// The virtual time now.
    public var now: VirtualTime { state.withLock { $0.now } }

    /// The earliest deadline anyone sleeps until.
    public var nextDeadline: VirtualTime? {
        state.withLock { s in
            s.sleepers.values.filter { !s.frozenGroups.contains($0.group) }.map(\.deadline).min()
        }
    }

    /// How many tasks are asleep.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Sleeps until the clock is advanced to `deadline` (in no group); throws if the task is cancelled.
    public func sleep(until deadline: VirtualTime) async throws {
        try await sleep(until: deadline, group: 0)
    }

    /// ``sleep(until:)`` as a member of `group` (an app process): ``endGroup(_:)`` wakes it with an error.
    public func sleep(until deadline: VirtualTime, group: UInt64) async throws {
        let sequence = nextSequence()
        try await withTaskCancellationHandler {
            try await suspend(until: deadline, sequence: sequence, group: group, cancellable: true)
        } onCancel: {
            cancel(sequence)
        }
    }

    /// Suspends until `deadline`, whether or not the task is cancelled meanwhile
    /// (a service that never checks its token). Throws only when the clock shuts down.
    public func sleepIgnoringCancellation(until deadline: VirtualTime) async throws {
        try await sleepIgnoringCancellation(until: deadline, group: 0)
    }

    /// ``sleepIgnoringCancellation(until:)`` as a member of `group`: ``endGroup(_:)`` still ends it.
    public func sleepIgnoringCancellation(until deadline: VirtualTime, group: UInt64) async throws {
        try await suspend(until: deadline, sequence: nextSequence(), group: group, cancellable: false)
    }

    /// Ends `group` (its app process is gone): each of its sleepers wakes with
    /// `CancellationError`, and so does every later sleep in it, so no task of a dead
    /// process waits on the clock for ever.
    public func endGroup(_ group: UInt64) {
        let sleepers: [Sleeper] = state.withLock { s in
            s.endedGroups.insert(group)
            let ended = s.sleepers.values.filter { $0.group == group }.sorted { $0.sequence < $1.sequence }
            for e in ended { s.sleepers.removeValue(forKey: e.sequence) }
            return ended
        }
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    private func nextSequence() -> UInt64 {
        state.withLock { s in
            s.nextSequence += 1
            return s.nextSequence
        }
    }

    private func suspend(until deadline: VirtualTime, sequence: UInt64, group: UInt64, cancellable: Bool) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let wakeNow: Bool? = state.withLock { s in
                if group != 0, s.endedGroups.contains(group) { return nil }
                if deadline <= s.now, !s.frozenGroups.contains(group) { return true }
                s.sleepers[sequence] = Sleeper(
                    deadline: deadline, sequence: sequence, group: group, continuation: continuation)
                return false
            }
            guard let wakeNow else { return continuation.resume(throwing: CancellationError()) }
            if wakeNow { continuation.resume() }
            // Cancelled before the sleeper was registered: onCancel found nothing to cancel.
            if cancellable, Task.isCancelled { cancel(sequence) }
        }
    }

    private func cancel(_ sequence: UInt64) {
        let sleeper = state.withLock { $0.sleepers.removeValue(forKey: sequence) }
        sleeper?.continuation.resume(throwing: CancellationError())
    }

    /// Wakes every sleeper with `CancellationError` (when the simulation closes), in the order they went to sleep.
    public func cancelAllSleepers() {
        let all: [Sleeper] = state.withLock { s in
            defer { s.sleepers.removeAll() }
            return s.sleepers.values.sorted { $0.sequence < $1.sequence }
        }
        for sleeper in all { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    /// Changes the set of suspended groups (`VirtualHostClock+Suspension.swift`).
    func withFrozenGroups(_ body: (inout Set<UInt64>) -> Void) {
        state.withLock { body(&$0.frozenGroups) }
    }

    /// Moves the clock to `time` (never backward) and wakes every sleeper whose
    /// deadline has come, earliest first.
    public func advance(to time: VirtualTime) {
        let due: [Sleeper] = state.withLock { s in
            if time > s.now { s.now = time }
            let ready = s.sleepers.values.filter { $0.deadline <= s.now && !s.frozenGroups.contains($0.group) }
                .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            for r in ready { s.sleepers.removeValue(forKey: r.sequence) }
            return ready
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
