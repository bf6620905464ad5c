import HostProtocol

/// The host playing the operating system: the `os/` controls (those of `--os ios`
/// included) and the session methods.
///
/// ```swift
/// let os = client.os
/// try await os.launch(client.refreshIdentifier)     // simulate-launch
/// try await os.advanceTime(seconds: 28)             // the safety timer fires
/// let state = try await os.state()
/// ```
public struct OperatingSystem: Sendable {
    let connection: any PluginCalling

    /// `initialize`; returns what the plugin says about itself.
    @discardableResult
    public func initialize(events: Bool) async throws(HostError) -> Initialize.Result {
        try await connection.call(Initialize.self, .init(events: events))
    }

    /// `os/launch`.
    @discardableResult
    public func launch(_ identifier: String) async throws(HostError) -> OSLaunch.Result {
        try await connection.call(OSLaunch.self, .init(identifier: identifier))
    }

    /// `os/expire`.
    public func expire(_ identifier: String) async throws(HostError) {
        _ = try await connection.call(OSExpire.self, .init(identifier: identifier))
    }

    /// `os/advanceTime`; returns the new time.
    @discardableResult
    public func advanceTime(seconds: Double) async throws(HostError) -> VirtualTime {
        try await connection.call(OSAdvanceTime.self, .init(seconds: seconds)).now
    }

    /// `os/pendingTaskRequests`.
    public func pendingTaskRequests() async throws(HostError) -> [TaskRequestInfo] {
        try await connection.call(OSPendingTaskRequests.self, EmptyParams()).requests
    }

    /// `os/setConditions`; returns all conditions.
    @discardableResult
    public func setConditions(_ params: OSSetConditions.Params) async throws(HostError) -> Conditions {
        try await connection.call(OSSetConditions.self, params)
    }

    /// `os/submit` (extension).
    @discardableResult
    public func submit(_ params: OSSubmit.Params) async throws(HostError) -> TaskRequestInfo {
        try await connection.call(OSSubmit.self, params)
    }

    /// `os/explain` (`--os ios`): whether `identifier` is pending or running, every
    /// reason it is not running now, and when it could next run.
    public func explain(_ identifier: String) async throws(HostError) -> LaunchExplanation {
        try await connection.call(OSExplain.self, .init(identifier: identifier))
    }

    /// `os/terminate` (`--os ios`): the app ends (`system` keeps the pending requests,
    /// `forceQuit` also stops background launches until ``openApp()``); returns the
    /// app's status after it.
    @discardableResult
    public func terminate(_ reason: TerminationReason) async throws(HostError) -> AppStatus {
        try await connection.call(OSTerminate.self, .init(reason: reason))
    }

    /// `os/openApp` (`--os ios`): the user opens the app (a new process when it was not
    /// running); returns the app's status after it.
    @discardableResult
    public func openApp() async throws(HostError) -> AppStatus {
        try await connection.call(OSOpenApp.self, EmptyParams())
    }

    /// `os/setPolicy` (`--os ios`): changes the members given; returns the whole policy.
    @discardableResult
    public func setPolicy(_ update: IOSPolicy.Update) async throws(HostError) -> IOSPolicy {
        try await connection.call(OSSetPolicy.self, update)
    }

    /// `plugin/state`.
    public func state() async throws(HostError) -> PluginStateSnapshot {
        try await connection.call(PluginStateMethod.self, EmptyParams())
    }

    /// `plugin/reset`.
    public func reset() async throws(HostError) {
        _ = try await connection.call(PluginReset.self, EmptyParams())
    }

    /// `shutdown`: the plugin answers, then exits 0.
    public func shutdown() async throws(HostError) {
        _ = try await connection.call(Shutdown.self, EmptyParams())
    }
}
