import BackgroundServicePlugin
import HostProtocol
import PluginHost

extension PluginLauncher {
    /// The plugin's engine in this process (`--plugin builtin`), started with the
    /// binary's arguments and environment variables.
    public static func inProcess(
        arguments: [String] = [], environment: [String: String] = [:], stderrPrefix: String = "[plugin] "
    ) -> PluginLauncher {
        PluginLauncher(description: "builtin") { sink throws(HostError) in
            try InProcessTransport(
                arguments: arguments, environment: environment, stderrPrefix: stderrPrefix, stderrLine: sink)
        }
    }
}

extension PluginConnection {
    /// A connection to the plugin's engine in this process, in one call: the
    /// connected pair for tests.
    ///
    /// ```swift
    /// let connection = try PluginConnection.inProcess(arguments: ["--profile", "strict"])
    /// let state = try await connection.call(PluginStateMethod.self, EmptyParams())
    /// ```
    public static func inProcess(
        arguments: [String] = [], environment: [String: String] = [:], options: Options = Options()
    ) throws(HostError) -> PluginConnection {
        try PluginConnection(launcher: .inProcess(arguments: arguments, environment: environment), options: options)
    }
}

extension DirectConnection {
    /// A caller-driven connection to the plugin's engine in this process, in one call.
    public static func inProcess(
        arguments: [String] = [], environment: [String: String] = [:]
    ) throws(HostError) -> DirectConnection {
        try DirectConnection(launcher: .inProcess(arguments: arguments, environment: environment))
    }
}
