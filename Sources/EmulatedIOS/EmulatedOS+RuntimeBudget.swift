import HostProtocol

/// Runtime budgets under `--os ios`: the OS expires a launched task on its own.
///
/// - A refresh task gets `refreshBudgetSecs` (default 30: Apple's "about 30
///   seconds"), except that with `refreshEarlyExpiryChance` (default 0.2) it gets an
///   early budget drawn uniformly, to the millisecond, from
///   `refreshEarlyExpiryMinSecs`...`refreshEarlyExpiryMaxSecs` (default 2 to 5 s: field
///   reports of refresh tasks expired 2 to 5 seconds after launch).
/// - A processing task gets `processingBudgetSecs` (default 600: "minutes"), and is
///   expired at once when the user starts using the device or a constraint it
///   requires is lost (Apple: processing tasks are cut off when the device is used).
///
/// Each launch draws two values (the chance, the early budget) whatever its kind, so
/// one launch never shifts the draws of another by a different amount. The budget starts
/// in ``IOSSystem/taskLaunched(_:request:in:)``; here are the controls that change it.
extension EmulatedOS {
    /// `os/setConditions` under `--os ios`: applies the given fields (the contract's
    /// and battery, Low Power Mode, device in use); a running processing task whose
    /// condition stops holding is expired now, before the reply. Launches nothing.
    package func setConditions(_ params: OSSetConditions.IOSParams) -> Conditions {
        let before = conditions
        _ = setConditions(params.base)
        var device = conditions.ios ?? .defaults
        if let v = params.batteryLevel { device.batteryLevel = v }
        if let v = params.lowPowerMode { device.lowPowerMode = v }
        if let v = params.deviceInUse { device.deviceInUse = v }
        self.device.conditions.ios = device
        for task in runningTasks {
            if let cause = lostConstraint(of: task, before: before) { expire(task, cause: cause) }
        }
        return conditions
    }

    /// Which condition of a running processing task stopped holding, if one did.
    private func lostConstraint(of task: BGTask, before: Conditions) -> ExpirationCause? {
        guard let ios, let constraints = ios.running[task.serial]?.constraints, isRunning(task), !task.hasExpired
        else {
            return nil
        }
        let now = conditions
        if before.ios?.deviceInUse == false, now.ios?.deviceInUse == true { return .deviceInUse }
        if constraints.power, before.externalPower, !now.externalPower { return .externalPowerLost }
        if constraints.network, before.networkConnected, !now.networkConnected { return .networkLost }
        return nil
    }

    /// `os/setPolicy`: applies the given knobs (checked together first); the energy
    /// budget keeps its level, clamped to a new capacity.
    package func setPolicy(_ update: IOSPolicy.Update) throws(RPCError) -> IOSPolicy {
        guard let ios else { return IOSPolicy.defaults }
        let policy = ios.policy.applying(update)
        if let problem = policy.inconsistency { throw RPCError.invalidParams(problem) }
        let wasOn = ios.policy.modelsAppStates
        ios.policy = policy
        appStatesSwitched(on: policy.modelsAppStates, wasOn: wasOn)
        if policy.energyBudgetLaunches != ios.energy.capacity {
            ios.energy.setCapacity(policy.energyBudgetLaunches, at: clock.now)
        }
        return policy
    }
}
