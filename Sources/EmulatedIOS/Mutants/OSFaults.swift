/// The emulated OS's deliberate defects, for the conformance suite's mutation score
/// (testing only): the OS half of the plugin's `BSP_FAULT` mutants.
///
/// The plugin reads `BSP_FAULT` and hands the OS the faults that act in it; the OS
/// checks them where each breaks its one rule. None is on by default.
package struct OSFaults: Sendable, Equatable {
    /// One defect of the emulated OS.
    package enum Fault: Sendable, Hashable {
        /// timer.*: every timer fires one tick (1 ns) late (`timer-one-tick-late`).
        case timerOneTickLate
        /// one-active: `os/launch` is accepted while a task runs (`allow-concurrent-launch`).
        case allowConcurrentLaunch
        /// scheduler.submit: the pending-request limits are not enforced (`no-pending-limit`).
        case noPendingLimit
        /// autoLaunch: processing constraints are ignored (`autolaunch-ignores-constraints`).
        case autoLaunchIgnoresConstraints
    }

    private let faults: Set<Fault>

    /// No faults.
    package static let none = OSFaults([])

    /// The given faults on.
    package init(_ faults: Set<Fault>) {
        self.faults = faults
    }

    /// Whether a fault is on.
    package func contains(_ fault: Fault) -> Bool { !faults.isEmpty && faults.contains(fault) }

    /// Nanoseconds added to every timer's deadline (`timer-one-tick-late`).
    package var timerDelayNanoseconds: Int64 { contains(.timerOneTickLate) ? 1 : 0 }
}
