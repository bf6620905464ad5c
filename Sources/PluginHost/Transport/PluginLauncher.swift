import Foundation
import HostProtocol

/// How to start a plugin: what tools are given instead of a path, so that they run
/// against a plugin binary or, with the `PluginInProcess` library, the plugin's
/// engine in this process (`PluginLauncher.inProcess(arguments:)`), unchanged.
///
/// ```swift
/// let launcher = PluginLauncher(executable: path, arguments: ["--profile", "seed"])
/// let transport = try launcher.start()
/// ```
public struct PluginLauncher: Sendable, CustomStringConvertible {
    /// Where the plugin's diagnostic lines go (already prefixed).
    public typealias LineSink = @Sendable (String) -> Void

    /// What it starts, for messages: the executable's path, or "builtin".
    public let description: String
    private let make: @Sendable (@escaping LineSink) throws(HostError) -> any PluginTransport

    /// A launcher from a function that starts a transport whose diagnostics go to the sink it is given.
    public init(
        description: String, start: @escaping @Sendable (@escaping LineSink) throws(HostError) -> any PluginTransport
    ) {
        self.description = description
        make = start
    }

    /// Starts a plugin; its diagnostic lines go to `stderrLine` (by default the host's stderr).
    public func start(
        stderrLine: @escaping LineSink = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) throws(HostError) -> any PluginTransport {
        try make(stderrLine)
    }
}
