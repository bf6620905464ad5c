import Foundation

/// Finds the plugin binary: `--plugin PATH`, else `background-service-plugin`
/// beside the running executable (as `swift build` lays them out).
public enum PluginLocator {
    /// The plugin's file name.
    public static let binaryName = "background-service-plugin"

    /// The directory of the running executable (resolving symlinks).
    public static var executableDirectory: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    }

    /// The path to use: `explicit` when given (made absolute), else `name` (the
    /// plugin by default) beside this binary.
    public static func resolve(_ explicit: String?, default name: String = binaryName) -> String {
        if let explicit {
            return URL(fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
        }
        return executableDirectory.appendingPathComponent(name).path
    }
}
