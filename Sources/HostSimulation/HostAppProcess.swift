import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// One app process as the simulated host sees it: under the real app the Rust side
/// lives and dies with the app, so each process has its own client, service manager
/// (idle at first), clock group and lifetime. The first is the process the plugin
/// starts with; under `--os ios` each `os/appLaunched` starts another.
public final class HostAppProcess: Sendable {
    /// 1 for the first process, then 2, 3, ….
    public let number: Int
    /// Why it started (`user` for the first).
    public let cause: LaunchCause
    /// When it started.
    public let startedAt: VirtualTime
    /// Ends with the app (``ProcessLifetime``).
    public let lifetime: ProcessLifetime
    /// Its Rust side's client: refuses every call once the process has ended.
    public let client: BackgroundServiceClient
    /// Its Rust side's service manager.
    public let manager: ServiceManager
    let tracker = Mutex(RunTracker())

    init(
        number: Int, cause: LaunchCause, startedAt: VirtualTime, lifetime: ProcessLifetime,
        client: BackgroundServiceClient, manager: ServiceManager
    ) {
        self.number = number
        self.cause = cause
        self.startedAt = startedAt
        self.lifetime = lifetime
        self.client = client
        self.manager = manager
    }

    /// Whether its service manager holds a run's token, as its events tell.
    public var serviceRunning: Bool { tracker.withLock { $0.running } }
    /// Whether it has started a run (one that was not rolled back).
    public var startedARun: Bool { tracker.withLock { $0.started } }
}

/// How an app process ended, and whether its service was running then.
public struct AppTermination: Sendable, Hashable {
    /// The process's number (1 for the first).
    public let process: Int
    /// Why it ended (`system`, `forceQuit`, `watchdog`).
    public let reason: TerminationReason
    /// When it ended.
    public let at: VirtualTime
    /// The service was running when the app ended: the user meant it to run.
    public let serviceWasRunning: Bool
}

/// An app process that started after another ended, and what the host did about a
/// service that was meant to run.
public struct AppRelaunch: Sendable, Hashable {
    /// The new process's number.
    public let process: Int
    /// Why it started: the user opened the app, or a background task was launched into it.
    public let cause: LaunchCause
    /// When it started.
    public let at: VirtualTime
    /// The task it was launched for (a cold start into the background).
    public let identifier: String?
    /// A service was running when an earlier process ended and has not run since.
    public let serviceMeantToRun: Bool
    /// Why the host does not resume the service, when it said so.
    public let notResumedBecause: String?
}
