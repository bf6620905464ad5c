/// The `BSP_FAULT` mutants of the seed's methods, as changes to their steps (testing only).
///
/// The port's methods contain no fault check: when the engine builds the port it passes
/// these mutations, and ``BackgroundServicePlugin/program(_:_:)`` makes them as it builds
/// each program. A mutation names steps by the seed statement they stand for, so each
/// mutant below reads as "drop this line", "run this line twice", "move this line".
/// Mutant steps may read the plugin's state (`$0.name`) but cannot write it: the state's
/// setters are private to the port's file (`restore(_:)` is the one seam, for the config).
enum PortMutants {
    /// The mutations for the faults switched on, in ``Fault`` order.
    static func mutations(for faults: FaultSet, in port: BackgroundServicePlugin) -> [StepMutation<PortFrame>] {
        guard !faults.isEmpty else { return [] }
        return Fault.allCases.filter(faults.contains).flatMap { mutations($0, port) }
    }

    static let successLabel = #"let success = invoke.args(as: [String: Bool].self)?["success"] ?? true"#
    static let argsLabel = "if let args = invoke.args(as: [String: Any].self)"
    static let expirationHandlerLabel = "task.expirationHandler = { [weak self] in self?.handleExpiration() }"

    /// The mutations of one fault; none for the faults of the engine and the OS.
    static func mutations(_ fault: Fault, _ port: BackgroundServicePlugin) -> [StepMutation<PortFrame>] {
        switch fault {
        case .ignoreConfig:
            let stores: Set = [
                "safetyTimeout = timeout", "processingSafetyTimeoutSecs = processingTimeout",
                "earliestRefreshBeginMinutes = minutes", "earliestProcessingBeginMinutes = minutes",
                "requiresExternalPower = power", "requiresNetworkConnectivity = network",
            ]
            return [.init(.drop, stores, in: ["startKeepalive"])]
        case .configNotPersisted:
            let forget = port.step("Mutant: every stored value back to its default") { $0.plugin.restore(.defaults) }
            return [.init(.insertAfter([forget]), [argsLabel], in: ["startKeepalive"])]
        case .dropSuperseded:
            return [.init(.drop, ["if let previous = pendingCancelInvoke"], in: ["waitForCancel"])]
        case .resolveBeforeReject:
            return [.init(.moveAfter(successLabel), ["invoke.resolve()"], in: ["completeBgTask"])]
        case .resolveInsteadOfReject:
            let resolve = port.step("cancelInvoke.resolve()") { $0.cancelInvoke?.resolve() }
            return [.init(.replace(resolve), ["cancelInvoke.reject(error: nil)"])]
        case .successDefaultFalse:
            let read = port.exitUnless(#"let success = … ?? false"#) { $0.readSuccess(fallback: false) }
            return [.init(.replace(read), [successLabel], in: ["completeBgTask"])]
        case .rescheduleAfterStop:
            let completion = "if let task = currentRefreshTask"
            return [.init(.insertAfter([port.scheduleNext]), [completion], in: ["stopKeepalive"])]
        case .processingTimerAlways:
            let otherwise = port.when("Mutant: else { startSafetyTimer(with: safetyTimeout) }") {
                !(($0.processingSafetyTimeoutSecs ?? 0) > 0)
            } then: {
                port.startSafetyTimer(with: "safetyTimeout") { $0.safetyTimeout }
            }
            let label = "if let timeout = processingSafetyTimeoutSecs, timeout > 0"
            return [.init(.insertAfter([otherwise]), [label], in: ["handleProcessingTask"])]
        case .completeTwice:
            let completions: Set = ["task.setTaskCompleted(success: success)", "task.setTaskCompleted(success: false)"]
            return [.init(.duplicate, completions)]
        case .expirationNoReschedule:
            return [.init(.drop, ["scheduleNext()"], in: ["handleExpiration"])]
        case .completeBothReferences:
            // The expiration handler completes the task its closure captured, then runs the
            // seed's handler, which completes the stored reference to the same task.
            let label = "Mutant: task.expirationHandler = { task.setTaskCompleted(success: false); … }"
            let both = port.step(label) { f in
                let handler = f.task?.expirationHandler
                f.task?.expirationHandler = { [weak task = f.task] in
                    task?.setTaskCompleted(success: false)
                    handler?()
                }
            }
            let handlers: Set = ["handleBackgroundTask", "handleProcessingTask"]
            return [.init(.insertAfter([both]), [expirationHandlerLabel], in: handlers)]
        case .safetyTimerRejects:
            let reject = port.step("invoke.reject(error: nil)") { $0.invoke?.reject(.completed) }
            return [.init(.replace(reject), ["invoke.resolve()"], in: ["handleSafetyTimerExpiration"])]
        case .rescheduleWithoutTask:
            return [.init(.unwrap, ["if hadActiveTask"], in: ["completeBgTask"])]
        case .stopNoRejectWithoutTask:
            let active = "Mutant: if currentRefreshTask != nil || currentProcessingTask != nil"
            let change = StepMutation<PortFrame>.Change.guarded(active) {
                $0.currentRefreshTask != nil || $0.currentProcessingTask != nil
            }
            return [.init(change, ["if let cancelInvoke = pendingCancelInvoke"], in: ["stopKeepalive"])]
        case .expirationLeavesTask:
            // The handler resolves the pending cancel invoke and stops there: completing the
            // task (and rescheduling, and clearing the state) is left to the host.
            let rest: Set = ["if let task = currentRefreshTask", "scheduleNext()", "cleanup()"]
            return [.init(.drop, rest, in: ["handleExpiration"])]
        case .replyFramingNDJSON, .oversizedWrongCode, .answerNotifications, .batchReversed, .allowDuplicateID,
            .acceptArrayParams, .timerOneTickLate, .allowConcurrentLaunch, .noPendingLimit,
            .autoLaunchIgnoresConstraints, .eventsAlwaysOn, .resetKeepsConfig, .shutdownNoReject,
            .nondeterministicTimes, .secondAnswerWritten, .rejectStartKeepalive, .rejectStopKeepalive,
            .garbageOnState, .exitMidFrameOnState:
            return []
        }
    }
}
