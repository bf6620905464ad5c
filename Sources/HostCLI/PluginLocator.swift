import Foundation
import PluginHost
import PluginInProcess

/// Finds the plugin: `--plugin PATH`, `--plugin builtin` (the plugin's engine in
/// this process, where a command supports it), else `background-service-plugin`
/// beside the running executable (as `swift build` lays them out).
public enum PluginLocator {
    /// The plugin's file name.
    public static let binaryName = "background-service-plugin"
    /// The `--plugin` value that means the engine in this process.
    public static let builtin = "builtin"

    /// The directory of the running executable (resolving symlinks).
    public static var executableDirectory: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    }

    /// The path to use: `explicit` when given (made absolute; `builtin` kept as it
    /// is), else `name` (the plugin by default) beside this binary.
    public static func resolve(_ explicit: String?, default name: String = binaryName) -> String {
        if explicit == builtin { return builtin }
        if let explicit {
            return URL(
                fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            ).standardizedFileURL.path
        }
        return executableDirectory.appendingPathComponent(name).path
    }

    /// Whether the plugin can be started: the engine always, a binary when it is executable.
    public static func isAvailable(_ plugin: String) -> Bool {
        plugin == builtin || FileManager.default.isExecutableFile(atPath: plugin)
    }

    /// How to start `plugin` (a path from ``resolve(_:)``) with these arguments.
    public static func launcher(
        _ plugin: String, arguments: [String], stderrPrefix: String = "[plugin] "
    ) -> PluginLauncher {
        plugin == builtin
            ? .inProcess(arguments: arguments, stderrPrefix: stderrPrefix)
            : PluginLauncher(executable: plugin, arguments: arguments, stderrPrefix: stderrPrefix)
    }
}
