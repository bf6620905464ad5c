/// The app's process as `os/terminate`, `os/openApp` and `plugin/state` (`ios.app`) show it.
public struct AppStatus: JSONCodable, Codable, Hashable {
    /// `launching`, `running` or `notRunning`.
    public var phase: AppPhase
    /// Why the current (or last) process was started.
    public var launchCause: LaunchCause
    /// When it was started.
    public var launchedAt: VirtualTime
    /// Whether the app was force-quit and not opened since: no background launches.
    public var forceQuit: Bool
    /// Why a launch handler could not be registered in this process, if one could not.
    @ExplicitNull public var registrationError: String?
    /// How the last process ended (`reason`, `at`), if one has.
    @ExplicitNull public var lastTermination: Termination?
    /// Processes started since the plugin started or was reset (the first one included).
    public var launches: Int

    /// How a process ended.
    public struct Termination: JSONCodable, Codable, Hashable {
        /// Why it ended.
        public var reason: TerminationReason
        /// When.
        public var at: VirtualTime

        /// A termination.
        public init(reason: TerminationReason, at: VirtualTime) {
            self.reason = reason
            self.at = at
        }
    }

    /// The app's status.
    public init(
        phase: AppPhase, launchCause: LaunchCause, launchedAt: VirtualTime, forceQuit: Bool, registrationError: String?,
        lastTermination: Termination?, launches: Int
    ) {
        self.phase = phase
        self.launchCause = launchCause
        self.launchedAt = launchedAt
        self.forceQuit = forceQuit
        self.registrationError = registrationError
        self.lastTermination = lastTermination
        self.launches = launches
    }

}

/// `os/terminate` (`--os ios` only): ends the app's process. `reason` `system` (the
/// system reclaims it: pending requests are kept and may cold-start it) or
/// `forceQuit` (swiped away: no background launches until `os/openApp`; allowed
/// while not running, where it only marks the app). Pending invokes are answered
/// `-32000` reason `terminated`; timers die. `-32002` for `system` while not running.
public enum OSTerminate: RPCMethod {
    public static let name = "os/terminate"
    public static let kind = MethodKind.osControl
    public typealias Result = AppStatus

    /// `{reason}`: `system` or `forceQuit` (`watchdog` and `crash` are the system's own).
    public struct Params: JSONCodable, Codable, Hashable {
        /// `system` or `forceQuit`.
        public var reason: TerminationReason

        /// Params.
        public init(reason: TerminationReason) { self.reason = reason }

        /// Reads `reason`; the rule: `watchdog` and `crash` are the system's own, not the host's to ask for.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .reason)
            guard let reason = TerminationReason(rawValue: text), reason != .watchdog, reason != .crash,
                reason != .jetsam
            else {
                throw JSONDecodingError(path: "reason", expected: "one of system, forceQuit", found: "\"\(text)\"")
            }
            self.reason = reason
        }
    }
}

/// `os/openApp` (`--os ios` only): the user opens the app. A fresh process starts
/// (cause `user`, fresh plugin state, registration runs again) and the force-quit
/// mark is cleared. `-32002` while the app is running; with the policy's `appStates`, a running
/// app in the background or suspended is brought to the foreground instead (its running tasks
/// expired, cause `foreground`), and `-32002` only while it is in the foreground.
public enum OSOpenApp: RPCMethod {
    public static let name = "os/openApp"
    public static let kind = MethodKind.osControl
    public typealias Params = EmptyParams
    public typealias Result = AppStatus
}

/// `os/explain` (`--os ios` only): why a request is not running now, and when it could.
public enum OSExplain: RPCMethod {
    public static let name = "os/explain"
    public static let kind = MethodKind.osControl
    public typealias Params = IdentifierParams
    public typealias Result = LaunchExplanation
}
