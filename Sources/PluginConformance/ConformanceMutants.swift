/// The plugin's `BSP_FAULT` switch seen from the suite: every fault that breaks a
/// contract rule (a mutant), with the checks of its rule family that must catch it.
///
/// The mutation test runs the suite once per mutant and requires each listed
/// check to fail; it also requires that this table names every fault the plugin
/// knows, except the host faults below.
enum ConformanceMutants {
    /// A mutant and the checks that must fail under it.
    struct Mutant: Sendable {
        /// The fault's `BSP_FAULT` name.
        let fault: String
        /// What it breaks.
        let breaks: String
        /// The checks that must fail.
        let checks: [String]
    }

    /// Every conformance mutant of `background-service-plugin`.
    static let all: [Mutant] = [
        Mutant(fault: "reply-framing-ndjson", breaks: "replies use the detected framing", checks: ["framing.auto.lsp"]),
        Mutant(
            fault: "oversized-wrong-code", breaks: "an oversized frame gets -32600",
            checks: ["framing.oversized.ndjson", "framing.oversized.lsp"]),
        Mutant(
            fault: "answer-notifications", breaks: "notifications are never answered",
            checks: ["jsonrpc.notification.never-answered"]),
        Mutant(
            fault: "batch-reversed", breaks: "batch replies in request order",
            checks: ["jsonrpc.batch.mixed", "jsonrpc.batch.in-order"]),
        Mutant(
            fault: "allow-duplicate-id", breaks: "a duplicate pending id gets -32600",
            checks: ["jsonrpc.duplicate-pending-id"]),
        Mutant(fault: "accept-array-params", breaks: "array params get -32602", checks: ["jsonrpc.params.array"]),
        Mutant(
            fault: "ignore-config", breaks: "config-persists (fields are stored)",
            checks: ["invoke.startKeepalive.config-applies"]),
        Mutant(
            fault: "config-not-persisted", breaks: "config-persists (absent fields keep their value)",
            checks: ["invoke.startKeepalive.config-persists"]),
        Mutant(
            fault: "drop-superseded", breaks: "single-pending under strict",
            checks: ["profile.strict.superseded-rejected"]),
        Mutant(
            fault: "resolve-before-reject", breaks: "completeBgTask's order",
            checks: ["invoke.completeBgTask.rejects-pending-before-resolving"]),
        Mutant(
            fault: "resolve-instead-of-reject", breaks: "the pending cancel invoke is rejected",
            checks: ["invoke.cancelCancelListener.rejects-pending", "invoke.stopKeepalive.rejects-without-task"]),
        Mutant(
            fault: "success-default-false", breaks: "success-default", checks: ["invoke.completeBgTask.success-default"]
        ),
        Mutant(
            fault: "reschedule-after-stop", breaks: "stopKeepalive never reschedules",
            checks: ["invoke.stopKeepalive.never-reschedules"]),
        Mutant(
            fault: "timer-one-tick-late", breaks: "safety-timer fires at its deadline",
            checks: ["timer.refresh.fires-at-deadline", "timer.processing.fires-at-deadline"]),
        Mutant(
            fault: "processing-timer-always", breaks: "processing-launch",
            checks: ["task.processing-launch.no-timer-by-default"]),
        Mutant(fault: "complete-twice", breaks: "exactly-once", checks: ["task.exactly-once.complete-after-stop"]),
        Mutant(
            fault: "expiration-no-reschedule", breaks: "expiration schedules next", checks: ["task.expiration.order"]),
        Mutant(
            fault: "allow-concurrent-launch", breaks: "one-active", checks: ["task.one-active.launch-while-running"]),
        Mutant(
            fault: "no-pending-limit", breaks: "tooManyPendingTaskRequests",
            checks: ["scheduler.submit.too-many-pending"]),
        Mutant(
            fault: "autolaunch-ignores-constraints", breaks: "autoLaunch waits for processing constraints",
            checks: ["autolaunch.processing-constraints"]),
        Mutant(
            fault: "events-always-on", breaks: "events only after initialize",
            checks: ["events.only-after-initialize"]),
        Mutant(
            fault: "reset-keeps-config", breaks: "plugin/reset really resets",
            checks: ["session.plugin-reset.really-resets"]),
        Mutant(
            fault: "shutdown-no-reject", breaks: "shutdown rejects the pending waitForCancel",
            checks: ["session.shutdown.rejects-pending"]),
        Mutant(
            fault: "nondeterministic-times", breaks: "byte-for-byte determinism",
            checks: ["determinism.virtual-clock"]),
        // From the real plugin's bug history (issue 14).
        Mutant(
            fault: "complete-both-references",
            breaks: "exactly-once: the expiration completes the task through both references "
                + "(the double setTaskCompleted crash)",
            checks: ["task.expiration.order", "task.expiration.processing"]),
        Mutant(
            fault: "safety-timer-rejects", breaks: "safety-timer: the pending invoke is resolved, not rejected",
            checks: ["timer.refresh.fires-at-deadline"]),
        Mutant(
            fault: "reschedule-without-task", breaks: "completeBgTask reschedules only when a task was active",
            checks: ["invoke.completeBgTask.no-task-no-reschedule"]),
        Mutant(
            fault: "stop-no-reject-without-task",
            breaks: "stopKeepalive rejects the pending invoke even without a task",
            checks: ["invoke.stopKeepalive.rejects-without-task"]),
        Mutant(
            fault: "second-answer-written", breaks: "an invoke is answered at most once (a race's second answer)",
            checks: ["invoke.answered-once.race"]),
    ]

    /// Faults that imitate a broken or crashing plugin process, for host tests:
    /// they are not contract mutants.
    static let hostFaults: Set<String> = [
        "reject-start-keepalive", "reject-stop-keepalive", "garbage-on-state", "exit-mid-frame-on-state",
        "expiration-leaves-task",
    ]
}
