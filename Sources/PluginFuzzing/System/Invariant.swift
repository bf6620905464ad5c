import HostProtocol
import PluginHost
import RustSide

/// The whole-system invariants D1-D6 (part D of `../shared/REFERENCE.md`, outside this
/// repository), plus the blocking pool's (D7), as the system fuzzer checks them after
/// every step (docs/fuzzing.md, "System level: the invariants").
public enum Invariant: String, Sendable, CaseIterable, Comparable {
    /// Every request answered exactly once, or known never to be; no host thread or task waits forever.
    case d1 = "D1"
    /// Every launched background task completed exactly once, before the system would kill the app.
    case d2 = "D2"
    /// A Stop caused by an old service run never stops a newer run.
    case d3 = "D3"
    /// While the service runs, a scheduled launch stays scheduled.
    case d4 = "D4"
    /// A background launch while no service runs is not left hanging until a timer.
    case d5 = "D5"
    /// The plugin and the host agree about the active task and the pending cancel listener.
    case d6 = "D6"
    /// The blocking pool never runs out: every cancel listener gets a thread (ours, beside part D).
    case d7 = "D7"
    /// `--os ios`: no watchdog kill caused by the host.
    case i1 = "I1"
    /// `--os ios`: after a termination, every host call is answered.
    case i2 = "I2"
    /// `--os ios`: a service running when the app ended comes back at the next launch, or says why not.
    case i3 = "I3"
    /// `--os ios`: no crash the host did not cause.
    case i4 = "I4"
    /// `--os ios`: no task is left running without an owner.
    case i5 = "I5"
    /// `--os ios --dispatch tauri`: no main-thread deadlock (issue 22).
    case i6 = "I6"
    /// `--os ios --dispatch tauri`: a safety timer fires only while it is the plugin's timer (issue 22).
    case i7 = "I7"
    /// `--os ios` with `appStates`: no Rust-side timer fires while the app is suspended (issue 23).
    case i8 = "I8"
    /// `--os ios` with `appStates`: the system launches no processing task into the foreground (issue 23).
    case i9 = "I9"

    /// The invariant's statement.
    public var statement: String {
        switch self {
        case .d1:
            "every request the host sends gets exactly one answer, or the host knows it will never get one and can"
                + " say why; no host thread or task waits forever"
        case .d2: "every launched background task is completed exactly once, before the system would kill the app"
        case .d3: "a Stop caused by an old service run never stops a newer run"
        case .d4: "while the service is meant to be running, the next background launch stays scheduled"
        case .d5: "a background launch while no service runs is not left hanging until a timer"
        case .d6:
            "the plugin and the host agree about whether a task is active and whether a cancel listener is pending"
        case .d7: "the blocking pool never runs out: every cancel listener gets a thread to wait on"
        case .i1: "no watchdog kill is caused by the host: every expired task is completed within the grace period"
        case .i2: "after a termination, no host call waits for ever"
        case .i3: "a service meant to run resumes after the app is launched again, or the host says why not"
        case .i4:
            "no crash the host did not cause: the app's process never ends by an uncaught exception of the "
                + "plugin's making"
        case .i5:
            "no task is left running without an owner: every task the OS runs is held by the app's code, which will"
                + " complete it"
        case .i6:
            "no main-thread deadlock: the plugin never waits for a main thread its own caller blocks"
        case .i7:
            "a safety timer fires only while it is the plugin's timer: one it invalidated, or replaced by a later"
                + " one, never fires"
        case .i8:
            "no Rust-side timer fires while the app is suspended: the Rust side writes nothing to the plugin"
                + " until the app is woken"
        case .i9:
            "the system launches no processing task while the app is in the foreground"
        }
    }

    /// How it is checked, when that is narrower than the statement.
    public var check: String {
        switch self {
        case .d1: "no blocking thread waits on an invoke the plugin no longer holds"
        case .d7: "no spawn_blocking closure waits for a thread"
        case .i8:
            "while time passes, no request of the Rust side's comes after the instant of the app's suspension"
                + " (os/appStateChanged) and before its next state change, launch or end"
        case .i9:
            "no os/taskLaunched of a processing task while the app is in the foreground, but for the"
                + " developer's os/launch"
        default: statement
        }
    }

    /// Ordered by name (D1 ... D7, I1 ... I9).
    public static func < (a: Invariant, b: Invariant) -> Bool { a.rawValue < b.rawValue }
}
