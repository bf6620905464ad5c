/// `os/blockMain` (`--os ios` with `--dispatch tauri` only): long-running work on the app's
/// main thread keeps its main queue busy for `seconds` of virtual time from now.
///
/// While main is blocked, nothing that runs on it can run: the launch handlers (registered
/// `using: .main`), the expiration handlers and the safety `Timer` of the main run loop
/// wait until it is free (duckduckgo/iOS pull request 782: work on the queue kept
/// `expirationHandler` from running). A main thread blocked longer than
/// ``mainThreadWatchdogSecs`` while a background task runs gets the app killed by the watchdog
/// (`os/appTerminated {reason: "watchdog", message}`). `-32002` without `--dispatch tauri`
/// (under `serial` there is no main queue apart from the one executor) or with no app running.
public enum OSBlockMain: RPCMethod {
    public static let name = "os/blockMain"
    public static let kind = MethodKind.osControl

    /// How long iOS lets the main thread of an app launched for a background task stay
    /// blocked before its watchdog kills it (termination code `0x8badf00d`). Apple's
    /// "Addressing watchdog terminations" gives no single figure (the allowance varies by
    /// operation); its sample report's allowance for a launch (`scene-create`) is 19.97 s.
    /// The emulation chooses 20 s.
    public static let mainThreadWatchdogSecs = 20

    /// `{seconds}`: how long main stays busy.
    public typealias Params = SecondsParams

    /// `{blockedSince, blockedUntil}`: the span the main queue is busy (a second block while
    /// one runs extends it: the work queues behind the work in progress).
    public struct Result: JSONCodable, Codable, Hashable {
        /// When the main queue became busy.
        public var blockedSince: VirtualTime
        /// When it is free again.
        public var blockedUntil: VirtualTime

        /// Creates a result.
        public init(blockedSince: VirtualTime, blockedUntil: VirtualTime) {
            self.blockedSince = blockedSince
            self.blockedUntil = blockedUntil
        }
    }
}
