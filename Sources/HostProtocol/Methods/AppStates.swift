/// Where the app is, as iOS sees it (`plugin/state`'s `ios.appState`, `os/appStateChanged`):
/// modelled under `--os ios` once the policy's `appStates` is on (issue 23).
public enum AppState: String, JSONStringEnum, Hashable {
    /// On screen, in use: processing tasks are not launched and running tasks are expired.
    case foreground
    /// Off screen and running: a background launch's task runs, or the app is about to be suspended.
    case background
    /// In memory, frozen: nothing of the app runs (its timers wait); a background launch wakes it.
    case suspended
    /// No process.
    case notRunning
}

/// A change of ``AppState``: `os/appStateChanged`'s params and `os/sendToBackground`'s result.
public struct AppStateChange: JSONCodable, Codable, Hashable {
    /// The state the app is in now.
    public var state: AppState
    /// When it changed.
    public var at: VirtualTime
    /// The task whose launch woke a suspended app, when that is why.
    public var identifier: String?

    /// A change.
    public init(state: AppState, at: VirtualTime, identifier: String? = nil) {
        self.state = state
        self.at = at
        self.identifier = identifier
    }
}

/// `os/appStateChanged` (`--os ios` with `appStates`): the app moved between `foreground`,
/// `background` and `suspended` (`{state, at, identifier?}`). A process's start and end are
/// announced by `os/appLaunched` (cause `user`: foreground; `backgroundTask`: background) and
/// `os/appTerminated` (notRunning), not by this event.
public enum AppStateChangedEvent: RPCEvent {
    public static let name = "os/appStateChanged"
    public typealias Params = AppStateChange
}

/// `os/sendToBackground` (`--os ios` with `appStates`): the user leaves the app (home gesture,
/// another app). The app goes from `foreground` to `background`; with no task running it is
/// suspended `suspendDelaySecs` later. `-32002` when the app is not in the foreground or
/// `appStates` is off.
public enum OSSendToBackground: RPCMethod {
    public static let name = "os/sendToBackground"
    public static let kind = MethodKind.osControl
    public typealias Params = EmptyParams
    public typealias Result = AppStateChange
}
