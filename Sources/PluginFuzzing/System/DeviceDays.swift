import HostProtocol
import HostSimulation
import PluginHost

/// Realistic device days under `--os ios`: what `plugin-host bench` plays to measure how
/// much simulated time the system level covers per wall second.
///
/// The app starts its service at every launch (`restartAtLaunch`) with the Rust side's
/// defaults: refresh requests 15 minutes out, the 28-second safety timer, the 4-hour
/// cancel listener; its processing request is for the night (an hour out, on external
/// power, which the phone has only at night; iOS also waits for it to be idle). Each
/// start gets one of a few services of random run lengths, some longer than the safety
/// timer. Each day the user opens the app in the morning and starts the
/// service, uses the phone on and off through 16 hours (time passing 5 to 60 minutes at
/// a time), and at night the phone charges, idle, for 8 hours. Between steps iOS often
/// ends the suspended app (so that a task's launch starts a new process, whose code starts
/// the service). The OS launches, expires and relaunches on its own.
///
/// ```swift
/// var days = DeviceDays(seed: 1)
/// let week = days.next(days: 7)   // about 600 actions, 7 simulated days
/// ```
public struct DeviceDays: Sendable {
    var rng: SplitMix64

    /// A generator; the same seed gives the same days.
    public init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[rng.below(options.count)] }

    /// A case of `days` days.
    public mutating func next(days: Int) -> SystemCase {
        var actions: [SystemAction] = []
        for _ in 0..<days { actions += day() }
        return SystemCase(scenario: scenario(), actions: actions)
    }

    mutating func scenario() -> SystemScenario {
        let defaults = StartKeepaliveConfig()
        let runs = (0..<(1 + rng.below(3))).map { _ in
            SystemScenario.Run(
                initSeconds: pick([0, 0, 1]), initFails: false, runSeconds: pick([2, 5, 10, 20, 25, 40, 90]),
                outcome: rng.chance(0.9) ? .success : .failure, onCancel: .returnNormally)
        }
        var s = SystemScenario(
            runs: runs, safetyTimeout: defaults.iosSafetyTimeoutSecs,
            processingSafetyTimeout: defaults.iosProcessingSafetyTimeoutSecs,
            listenerTimeout: defaults.iosCancelListenerTimeoutSecs,
            earliestMinutes: defaults.iosEarliestRefreshBeginMinutes, races: RacePlan(seed: rng.next()))
        s.restartAtLaunch = true
        s.processingEarliestMinutes = 60
        s.processingNeedsPower = true
        return s
    }

    /// One day: 16 hours awake, then 8 hours on the charger.
    mutating func day() -> [SystemAction] {
        var actions: [SystemAction] = [
            .iosConditions(.init(base: .init(externalPower: false))), .iosConditions(.init(deviceInUse: true)),
            .openApp, .start,
        ]
        var inUse = true
        var minutes = 0
        while minutes < 16 * 60 {
            let step = min(pick([5, 10, 15, 20, 30, 45, 60]), 16 * 60 - minutes)
            actions.append(.advance(VirtualTime(seconds: Double(step * 60))!))
            minutes += step
            if rng.chance(0.3) {
                inUse.toggle()
                actions.append(.iosConditions(.init(deviceInUse: inUse)))
            }
            // iOS reclaims a suspended app's memory: the next launch starts a new process,
            // whose code starts the service.
            if rng.chance(0.4) { actions.append(.terminate(.system)) }
        }
        actions += [.iosConditions(.init(deviceInUse: false)), .iosConditions(.init(base: .init(externalPower: true)))]
        minutes = 0
        while minutes < 8 * 60 {
            let step = min(pick([30, 60, 90]), 8 * 60 - minutes)
            actions.append(.advance(VirtualTime(seconds: Double(step * 60))!))
            minutes += step
            if rng.chance(0.4) { actions.append(.terminate(.system)) }
        }
        return actions
    }
}
