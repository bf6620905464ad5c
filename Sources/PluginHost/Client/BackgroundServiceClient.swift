import HostProtocol

/// The five invokes of the seed plugin, typed, plus the emulated OS.
///
/// ```swift
/// let client = try BackgroundServiceClient(plugin: .init(executable: path))
/// try await client.os.initialize(events: true)
/// try await client.startKeepalive(StartKeepaliveConfig())
/// let signal = try await client.waitForCancel()   // suspends until answered
/// ```
public struct BackgroundServiceClient: Sendable {
    /// The connection the calls go through (a ``PluginConnection``, or one that wraps it).
    public let connection: any PluginCalling
    /// The emulated operating system's controls.
    public var os: OperatingSystem { OperatingSystem(connection: connection) }
    /// The app process this client belongs to, if it can end (``ProcessLifetime``):
    /// once ended, every invoke fails with `terminated` and nothing is written.
    public let lifetime: ProcessLifetime?

    /// Wraps an existing connection.
    public init(connection: any PluginCalling, lifetime: ProcessLifetime? = nil) {
        self.connection = connection
        self.lifetime = lifetime
    }

    /// Starts a plugin and connects to it.
    public init(plugin: PluginProcess.Options, options: PluginConnection.Options = .init()) throws(HostError) {
        connection = try PluginConnection(plugin: plugin, options: options)
        lifetime = nil
    }

    /// `startKeepalive`: store the config and schedule both tasks (params as the Rust
    /// side writes them, ``StartKeepaliveConfig/wireParams``).
    public func startKeepalive(_ config: StartKeepaliveConfig) async throws(HostError) {
        try lifetime?.check()
        _ = try await connection.call(method: StartKeepalive.name, params: config.wireParams)
    }

    /// `startKeepalive` with raw params (only the fields given).
    public func startKeepalive(_ params: StartKeepalive.Params) async throws(HostError) {
        try lifetime?.check()
        _ = try await connection.call(StartKeepalive.self, params)
    }

    /// `waitForCancel`: suspends until the plugin answers; a rejection is an
    /// outcome here, not an error.
    public func waitForCancel(timeout: Duration? = nil) async throws(HostError) -> CancelSignal {
        do {
            try lifetime?.check()
            _ = try await connection.call(WaitForCancel.self, EmptyParams(), timeout: timeout)
            return .resolved
        } catch {
            if let signal = CancelSignal(error) { return signal }
            throw error
        }
    }

    /// `completeBgTask(success)`.
    public func completeBgTask(success: Bool) async throws(HostError) {
        try lifetime?.check()
        _ = try await connection.call(CompleteBgTask.self, .init(success: success))
    }

    /// `stopKeepalive`.
    public func stopKeepalive() async throws(HostError) {
        try lifetime?.check()
        _ = try await connection.call(StopKeepalive.self, EmptyParams())
    }

    /// `cancelCancelListener`.
    public func cancelCancelListener() async throws(HostError) {
        try lifetime?.check()
        _ = try await connection.call(CancelCancelListener.self, EmptyParams())
    }
}
