import Foundation
import HostProtocol
import PluginHost
import PluginInProcess
import Synchronization

/// Finds the plugin: `--plugin PATH`, `--plugin builtin` (the plugin's engine in
/// this process, where a command supports it), else `background-service-plugin`
/// beside the running executable (as `swift build` lays them out).
public enum PluginLocator {
    /// The plugin's file name.
    public static let binaryName = "background-service-plugin"
    /// The `--plugin` value that means the engine in this process.
    public static let builtin = "builtin"
    /// What the plugin's forwarded stderr lines start with unless `--plugin-log-prefix` says otherwise.
    public static let defaultStderrPrefix = "[plugin] "

    private static let prefix = Mutex(defaultStderrPrefix)

    /// What the plugin's forwarded stderr lines start with: `--plugin-log-prefix TEXT`
    /// (``HostCLI``, for every subcommand), made safe for a terminal; `[plugin] ` by default.
    public static var stderrPrefix: String {
        get { prefix.withLock { $0 } }
        set { prefix.withLock { $0 = TerminalText.oneLine(newValue, limit: 256) } }
    }

    /// The directory of the running executable (resolving symlinks).
    public static var executableDirectory: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    }

    /// The path to use: `explicit` when given (made absolute; `builtin` kept as it
    /// is), else `name` (the plugin by default) beside this binary. An empty `explicit`
    /// stays empty: it names no file (it is not the current directory), and
    /// ``isAvailable(_:)`` (like `isExecutableFile`) says no to it, so every subcommand
    /// reports it as a usage error.
    public static func resolve(_ explicit: String?, default name: String = binaryName) -> String {
        if explicit == builtin { return builtin }
        if let explicit {
            guard !explicit.isEmpty else { return "" }
            return URL(
                fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            ).standardizedFileURL.path
        }
        return executableDirectory.appendingPathComponent(name).path
    }

    /// Whether the plugin can be started: the engine always, a binary when it is an
    /// executable file (a directory is not, whatever its `x` bits say).
    public static func isAvailable(_ plugin: String) -> Bool {
        if plugin == builtin { return true }
        var isDirectory: ObjCBool = false
        guard !plugin.isEmpty, FileManager.default.fileExists(atPath: plugin, isDirectory: &isDirectory) else {
            return false
        }
        return !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: plugin)
    }

    /// How to start `plugin` (a path from ``resolve(_:default:)``) with these
    /// arguments; its stderr lines are forwarded with ``stderrPrefix`` before them.
    public static func launcher(
        _ plugin: String, arguments: [String], stderrPrefix: String = PluginLocator.stderrPrefix
    ) -> PluginLauncher {
        plugin == builtin
            ? .inProcess(arguments: arguments, stderrPrefix: stderrPrefix)
            : PluginLauncher(executable: plugin, arguments: arguments, stderrPrefix: stderrPrefix)
    }
}
