import HostProtocol
import RustSide

/// `Timer.invalidate()` off the timer's thread as a race (``Race/invalidateVsFire``; issue 22).
///
/// Under `--dispatch tauri` the seed's `cleanup()` invalidates the safety timer, which lives on
/// the main run loop, from the `ipc` queue (seed lines 181, 231, 287); Apple's
/// `Timer.invalidate()` says such a timer may not be removed from its run loop. The plugin
/// takes each such invalidation's outcome from the schedule installed with
/// `plugin/dispatchSchedule`'s `invalidations` (`removed` past their end). Under `--os ios`,
/// when the ``RacePlan`` decides them (it has a seed, as a fuzzer's has, or recorded orders
/// for this race, as a trace that needed them has), the simulation draws outcomes before each
/// action (``installInvalidations()``) and records the ones the plugin took after it
/// (``settleInvalidations()``), one ``RaceRecord`` each: shrinking can turn them back to
/// `invalidate-first` one at a time, and a trace replays them. Otherwise nothing is
/// installed and every invalidation removes, as before the race existed, so that traces
/// recorded before it replay byte for byte.
extension SystemSimulation {
    /// Outcomes installed per action (an action invalidates the timer a few times at most).
    static let invalidationsPerAction = 8

    /// Whether this simulation decides off-thread invalidations.
    public var decidesInvalidations: Bool {
        options.dispatch == .tauri && info.os == .ios
            && (options.races.seed != nil || options.races.choices[.invalidateVsFire] != nil)
    }

    /// Before an action: outcomes drawn from the plan and installed (no queue choices).
    public func installInvalidations() throws(SimulationError) {
        guard decidesInvalidations else { return }
        let drawn = races.draw(.invalidateVsFire, count: Self.invalidationsPerAction)
        shared.withLock { $0.invalidationsDrawn = (drawn, []) }
        _ = try schedule(choices: [])
    }

    /// After an action: the outcomes the plugin took recorded, the rest given back; nothing
    /// stays installed.
    public func settleInvalidations() throws(SimulationError) {
        guard decidesInvalidations else { return }
        _ = try schedule(choices: [], keepingInvalidations: false)
        guard
            let (drawn, taken) = shared.withLock({ s in
                defer { s.invalidationsDrawn = nil }
                return s.invalidationsDrawn
            })
        else { return }
        _ = races.settle(.invalidateVsFire, drawn: drawn, taken: taken)
        if taken.contains(.second) {
            note(
                "race invalidate-vs-fire, \(taken.count) off-thread invalidation(s): "
                    + taken.map { $0 == .first ? "removed" : "notRemoved" }.joined(separator: ","))
        }
    }

    /// `plugin/dispatchSchedule` with `choices`: notes the invalidation outcomes the plugin
    /// took since the previous call and, when `keepingInvalidations`, installs the rest of the
    /// action's drawn outcomes again (each call replaces what is installed). Returns the report.
    func schedule(
        choices: [DispatchQueueName], keepingInvalidations: Bool = true
    ) throws(SimulationError) -> PluginDispatchSchedule.Result {
        let rest = shared.withLock { s -> [TimerInvalidation] in
            guard keepingInvalidations, let (drawn, taken) = s.invalidationsDrawn else { return [] }
            return drawn.dropFirst(taken.count).map { $0 == .first ? TimerInvalidation.removed : .notRemoved }
        }
        let report = try call(
            PluginDispatchSchedule.self, .init(choices: choices, invalidations: rest), origin: .harness)
        shared.withLock { s in
            guard let (drawn, taken) = s.invalidationsDrawn else { return }
            let now = (report.invalidations ?? []).map { $0 == .removed ? Race.Side.first : .second }
            s.invalidationsDrawn = (drawn, taken + now)
        }
        return report
    }
}
