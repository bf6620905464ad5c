/// How the emulated OS behaves (`--os`).
public enum OSMode: String, JSONStringEnum, Hashable {
    /// The OS acts only on `os/` controls (the contract's behaviour; the default).
    case manual
    /// The OS also applies iOS's own policies: launch decisions, runtime budgets,
    /// the watchdog and the app's lifecycle (`docs/protocol.md`, "--os ios").
    case ios
    /// The iOS Simulator's OS: every `submit` fails with `unavailable`, nothing launches by
    /// itself; only `os/launch` and `os/expire` (the debugger's commands) act (issue 23).
    case simulator
}

/// Which defaults the `--os ios` policy starts from (`--ios-defaults`).
public enum IOSDefaults: String, JSONStringEnum, Hashable {
    /// The device as calibrated (issue 23; the default): the app's states and scheduling
    /// driven by use on (``IOSPolicy/defaults``).
    case device
    /// The model before issue 23: a process is only running or not, launches ignore use
    /// (``IOSPolicy/legacy``); kept so that hosts, tests and traces written for it replay.
    case legacy
}

/// Why the OS ran a task's expiration handler: `os/taskExpired`'s `cause` (under `--os ios`).
public enum ExpirationCause: String, JSONStringEnum, Hashable {
    /// `os/expire` (the debugger's simulate-expiration).
    case simulated
    /// The task's runtime budget ran out.
    case budget
    /// A processing task that requires external power lost it.
    case externalPowerLost
    /// A processing task that requires network connectivity lost it.
    case networkLost
    /// The user started using the device while a processing task ran.
    case deviceInUse
    /// The user brought the app to the foreground while the task ran (`appStates`; Apple's
    /// engineers, developer forums thread 764762: "if you foreground your app before the task
    /// expires then the task will expire").
    case foreground
}

/// Why the app's process ended: `os/appTerminated`'s `reason`.
public enum TerminationReason: String, JSONStringEnum, Hashable {
    /// The system reclaimed the app (`os/terminate {reason: "system"}`): pending requests are kept.
    case system
    /// The user swiped the app away in the app switcher: no background launches until it is opened.
    case forceQuit
    /// A task was not completed within the grace period after its expiration handler ran.
    case watchdog
    /// The app raised an uncaught exception (a misuse of `BGTaskScheduler`: `os/appTerminated`
    /// carries the `exception` and Apple's `message`).
    case crash
    /// The system ended the suspended app to reclaim memory (jetsam; the policy's `jetsamChance`
    /// under `appStates`): the next launch is a cold start.
    case jetsam
}

/// Why the app's process was started: `os/appLaunched`'s `cause`.
public enum LaunchCause: String, JSONStringEnum, Hashable {
    /// The user opened the app (`os/openApp`; also the process the plugin starts with).
    case user
    /// The system launched the app into the background to run a task (a cold start).
    case backgroundTask
}

/// Where the app's process is in its life (`plugin/state`'s `ios.app.phase`).
public enum AppPhase: String, JSONStringEnum, Hashable {
    /// Started, `didFinishLaunching` not returned yet: launch handlers may be registered.
    case launching
    /// Finished launching: registering a launch handler now is an error.
    case running
    /// Terminated (or never relaunched): no plugin state, no timers.
    case notRunning
}

/// One thing that keeps a pending request from running now (`os/explain`, `os/launchDeferred`).
public enum LaunchFactor: String, JSONStringEnum, Hashable {
    /// No request is pending for the identifier.
    case notPending
    /// The request's `earliestBeginDate` has not come.
    case earliestBeginDate
    /// The system's own scheduling delay after `earliestBeginDate` has not passed.
    case systemDelay
    /// The app was force-quit: no background launches until the user opens it.
    case forceQuit
    /// The running app has no launch handler for the identifier.
    case notRegistered
    /// `autoLaunch` is off: the system launches nothing by itself.
    case autoLaunchOff
    /// Background App Refresh is off (refresh requests only).
    case backgroundAppRefreshOff
    /// The battery is below 20 %: no discretionary launches.
    case lowBattery
    /// Low Power Mode is on.
    case lowPowerMode
    /// The daily energy budget is spent; it refills over the day.
    case energyBudget
    /// The identifier launched too recently (minimum spacing between its launches).
    case rateLimit
    /// Another task is running (the OS runs one at a time).
    case taskRunning
    /// A processing task needs an idle device.
    case deviceInUse
    /// A processing task that requires external power is not on power.
    case externalPower
    /// A processing task that requires network connectivity has none.
    case networkConnectivity
    /// The clock is at its limit (2^62 ns, about 146 years): it never moves again, and
    /// nothing due at or beyond the limit ever comes (`docs/rules.md`, "timers").
    case clockLimit
    /// Launching it crashes the app (`crashOnMisuse`): the app would have no launch handler
    /// for it, so the launch is an uncaught `NSInternalInconsistencyException` and its handler
    /// never runs. The one factor that does not delay the launch: it says why the task will never run.
    case launchCrashes
    /// The app is in the foreground (`appStates`): processing tasks are launched only while the
    /// app is not in use.
    case appInForeground
    /// The system ended the suspended app to reclaim memory (jetsam): the launch will be a cold
    /// start, a fresh process with the plugin's state at its defaults. Does not delay the launch.
    case coldStart
    /// App usage (the policy's `usageScheduling`): an app the user has not used within
    /// `usageWindowSecs` gets no discretionary launch until they open it; otherwise a launch
    /// waits `usageRefreshIntervalSecs` (refresh) or `usageProcessingIntervalSecs` (processing,
    /// at most two days) divided by the usage score after the previous one of its identifier.
    case appUsage
}

/// The device conditions `--os ios` adds to ``Conditions`` (members of `os/setConditions`).
public struct IOSConditions: JSONCodable, Codable, Hashable, FlattenedPresence {
    /// The battery's charge from 0 to 1 (default 1). Below 0.2 nothing discretionary launches.
    public var batteryLevel: Double
    /// Low Power Mode (default false): no background launches.
    public var lowPowerMode: Bool
    /// The user is using the device (default false): processing tasks neither start nor keep running.
    public var deviceInUse: Bool

    /// The defaults.
    public static let defaults = IOSConditions(batteryLevel: 1, lowPowerMode: false, deviceInUse: false)

    /// Below this battery level nothing discretionary launches.
    public static let lowBatteryThreshold = 0.2

    /// Creates conditions.
    public init(batteryLevel: Double, lowPowerMode: Bool, deviceInUse: Bool) {
        self.batteryLevel = batteryLevel
        self.lowPowerMode = lowPowerMode
        self.deviceInUse = deviceInUse
    }

    /// Flattened into ``Conditions``: present when `batteryLevel` is (an `--os ios` plugin).
    public static var presenceKey: String { "batteryLevel" }
}
