import EmulatedIOS

/// Deliberate defects, for proving that the conformance suite and the fuzzer
/// catch what they claim to. **Testing only.**
///
/// Switched on by the environment variable `BSP_FAULT` (a comma-separated list of
/// names); inert otherwise. Each fault breaks exactly one rule family; the
/// conformance suite's mutation test runs the suite once per fault and expects
/// the matching check to fail. An unknown name is a usage error (exit 64).
///
/// Where each acts: the faults of the seed's methods are changes to their steps, made
/// when the engine builds the port (``PortMutants``); the seed's methods hold no fault
/// check. The others act in the engine (`Server/`) or the emulated OS (``OSFaults``, in `EmulatedIOS`).
public enum Fault: String, CaseIterable, Sendable {
    /// framing.auto: replies are framed as ndjson whatever framing was detected.
    case replyFramingNDJSON = "reply-framing-ndjson"
    /// framing.oversized: an oversized frame gets -32700 instead of -32600.
    case oversizedWrongCode = "oversized-wrong-code"
    /// jsonrpc.notification: notifications are answered.
    case answerNotifications = "answer-notifications"
    /// jsonrpc.batch: a batch's replies come in reverse order.
    case batchReversed = "batch-reversed"
    /// jsonrpc.duplicate-id: a request reusing a pending id is accepted.
    case allowDuplicateID = "allow-duplicate-id"
    /// jsonrpc.params: an array of params is accepted as if it were `{}`.
    case acceptArrayParams = "accept-array-params"
    /// invoke.startKeepalive config: given fields are not stored.
    case ignoreConfig = "ignore-config"
    /// invoke.startKeepalive config-persists: absent fields go back to defaults.
    case configNotPersisted = "config-not-persisted"
    /// invoke.waitForCancel single-pending (strict): the old invoke is dropped, not rejected.
    case dropSuperseded = "drop-superseded"
    /// invoke.completeBgTask order: resolves itself before rejecting the pending invoke.
    case resolveBeforeReject = "resolve-before-reject"
    /// invoke.*: the pending cancel invoke is resolved where it must be rejected.
    case resolveInsteadOfReject = "resolve-instead-of-reject"
    /// invoke.completeBgTask success-default: a missing `success` means false.
    case successDefaultFalse = "success-default-false"
    /// invoke.stopKeepalive: reschedules after stopping.
    case rescheduleAfterStop = "reschedule-after-stop"
    /// timer.*: the safety timer fires one tick (1 ns) late.
    case timerOneTickLate = "timer-one-tick-late"
    /// timer.processing: a processing task always gets a safety timer.
    case processingTimerAlways = "processing-timer-always"
    /// exactly-once: an active task is completed twice.
    case completeTwice = "complete-twice"
    /// expiration: the expiration handler does not reschedule.
    case expirationNoReschedule = "expiration-no-reschedule"
    /// one-active: `os/launch` is accepted while a task runs.
    case allowConcurrentLaunch = "allow-concurrent-launch"
    /// scheduler.submit: the pending-request limits are not enforced.
    case noPendingLimit = "no-pending-limit"
    /// autoLaunch: processing constraints are ignored.
    case autoLaunchIgnoresConstraints = "autolaunch-ignores-constraints"
    /// events: events are sent before `initialize` asks for them.
    case eventsAlwaysOn = "events-always-on"
    /// plugin/reset: the stored config survives a reset.
    case resetKeepsConfig = "reset-keeps-config"
    /// shutdown: a pending `waitForCancel` is left unanswered.
    case shutdownNoReject = "shutdown-no-reject"
    /// determinism: times in replies carry a per-process jitter.
    case nondeterministicTimes = "nondeterministic-times"

    // Mutants from the real plugin's bug history (issue 14).

    /// exactly-once: the expiration completes the task through both references it has, the
    /// one its closure captured and the stored one (the double `setTaskCompleted` crash).
    case completeBothReferences = "complete-both-references"
    /// safety-timer: the timer rejects the pending `waitForCancel` instead of resolving it.
    case safetyTimerRejects = "safety-timer-rejects"
    /// completeBgTask order: reschedules even when no task was active.
    case rescheduleWithoutTask = "reschedule-without-task"
    /// stopKeepalive: the pending `waitForCancel` is rejected only when a task is active.
    case stopNoRejectWithoutTask = "stop-no-reject-without-task"
    /// invoke.answered-once: a second answer to one invoke is written to the wire.
    case secondAnswerWritten = "second-answer-written"

    // Faults for testing hosts rather than checks: they make the plugin fail the
    // way a broken or crashing plugin would.

    /// host: `startKeepalive` is answered with -32603 and stores nothing.
    case rejectStartKeepalive = "reject-start-keepalive"
    /// host: `stopKeepalive` is answered with -32603 and does nothing.
    case rejectStopKeepalive = "reject-stop-keepalive"
    /// host: `plugin/state` is answered with a line of garbage.
    case garbageOnState = "garbage-on-state"
    /// host: `plugin/state` makes the plugin write half a frame and exit with status 3.
    case exitMidFrameOnState = "exit-mid-frame-on-state"
    /// host: the expiration handler only resolves the pending cancel invoke and leaves
    /// completing the task to the host (a plugin that waits for the Rust side), so a
    /// host that does not complete it in time gets the app killed under `--os ios`.
    case expirationLeavesTask = "expiration-leaves-task"

    /// Whether this fault breaks a contract rule (a mutant the conformance suite
    /// must catch) rather than simulating a broken process for host tests.
    public var isConformanceMutant: Bool {
        switch self {
        case .rejectStartKeepalive, .rejectStopKeepalive, .garbageOnState, .exitMidFrameOnState, .expirationLeavesTask:
            false
        default: true
        }
    }
}
