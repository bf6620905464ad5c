import HostProtocol

/// What the manager does, for timelines, tests and the system fuzzer.
// Departs: the app events (`background-service://event`) are these events, not Tauri events.
public enum ServiceEvent: Sendable, Hashable {
    /// The `start` command came; the run it would be.
    case startRequested(generation: UInt64)
    /// The start was refused or failed (already running, `startKeepalive` failed, ...).
    case startFailed(generation: UInt64, error: String)
    /// After a failed `startKeepalive`: token cleared, state idle, the callback back in its slot.
    case rolledBack(generation: UInt64)
    /// The run's state changed.
    case stateChanged(generation: UInt64, ServiceState)
    /// The service's work ended: success or its error; `current` is false when a newer run holds the token.
    case runEnded(generation: UInt64, success: Bool, error: String?, current: Bool)
    /// The run's completion callback was called (it calls `completeBgTask(success)`).
    case completionCallback(generation: UInt64, success: Bool)
    /// Strict: the completion of a run that is no longer current was skipped.
    case completionSkipped(generation: UInt64)
    /// The run's cancel listener was spawned (its `waitForCancel` is or will be written).
    case listenerArmed(generation: UInt64)
    /// Every blocking-pool thread is busy: the listener's `waitForCancel` waits for one.
    case listenerQueued(generation: UInt64, busy: Int)
    /// The run's cancel listener ended: `resolved`, `rejected (REASON)`, `timed out after N s`, ...
    case listenerFinished(generation: UInt64, outcome: String)
    /// A `waitForCancel` whose listener had given up (timed out) was answered: its
    /// thread is free again, and nobody acts on the answer.
    case abandonedWaitAnswered(generation: UInt64, outcome: String)
    /// A `Stop` came, from the app or a cancel listener.
    case stopRequested(StopOrigin)
    /// Strict: a stop meant for an earlier or ended run was not carried out.
    case stopIgnored(StopOrigin, reason: String)
    /// The stop failed (nothing was running).
    case stopFailed(StopOrigin, error: String)
    /// A `stopKeepalive` failed; logged, not returned.
    case stopKeepaliveFailed(error: String)
    /// Strict: a run that ended on its own releases the keepalive (`stopKeepalive`).
    case keepaliveReleased(generation: UInt64)
    /// Everything the end of a run causes is done (callback, keepalive release).
    case runFinished(generation: UInt64)
}
