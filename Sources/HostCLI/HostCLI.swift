import Foundation
import PluginHost

/// The `plugin-host` executable: subcommand dispatch, usage and exit codes
/// (``ExitCode``: 0 success, 1 a rule broken, 2 the plugin did not start, 3 the plugin
/// broke the transport, 64 usage error; diagnostics on stderr).
///
/// ```swift
/// // Sources/plugin-host/main.swift
/// exit(HostCLI.main(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum HostCLI {
    static let usage = """
        usage: plugin-host SUBCOMMAND [options]

        Plays the Rust side of a Tauri background-service plugin against the plugin's
        iOS half (background-service-plugin), on an emulated BGTaskScheduler.

        subcommands:
          demo          run the service manager through a scripted day and print the timeline
          conformance   check a plugin binary against every rule of the contract
          fuzz          explore invoke and OS-event orderings against a reference model
          replay        re-run a trace file written by fuzz
          bench         measure round trips, throughput, startup and memory against a raw pipe
          soak          a long load on one plugin process: memory growth, leaked pending calls, fault latency
          explain       a live session under the emulated iOS: why a task has not run, and when it can
          week          a simulated week under the emulated iOS: launches, expirations and gaps, day by day

        `plugin-host SUBCOMMAND --help` (or `plugin-host help SUBCOMMAND`) documents each.

        options every subcommand takes (each starts a plugin):
          --plugin-log-prefix TEXT   what the plugin's stderr lines start with when shown
                                     (default "[plugin] "; "" for nothing)

        plugin-host --version prints the version. Exit status: 0 every rule held, 1 a rule
        broken, 2 the plugin did not start, 3 the plugin broke the transport (flooding,
        silence past a timeout, bad frames, answers twice or to unknown ids), 64 usage,
        130 interrupted.
        """

    /// Runs a command line (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        stopPluginsOnSignals()
        adoptOrphans()
        defer { killOrphans() }
        guard let sub = arguments.first else {
            return usageError("missing subcommand", usage: usage)
        }
        switch sub {
        case "--help", "-h":
            Console.out(usage)
            return ExitCode.ok
        case "--version":
            Console.out("plugin-host \(version) (\(BuildInfo.configuration) build)")
            return ExitCode.ok
        case "help":
            return help(Array(arguments.dropFirst()))
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == sub }) else {
            return usageError("unknown subcommand \"\(sub)\"", usage: usage)
        }
        let rest: [String]
        switch takePluginLogPrefix(Array(arguments.dropFirst())) {
        case .success(let remaining): rest = remaining
        case .failure(let error): return usageError(error.description, usage: command.usage)
        }
        return command.run(rest)
    }

    /// Set (to anything) in the environment as `PLUGIN_HOST_CHECK_ARGS`: every subcommand
    /// parses its command line and checks its inputs (the plugin binary, files it would
    /// read), then stops with 0 instead of running. Testing only: the test that every
    /// command shown in the docs still works runs them this way.
    static var checkArgumentsOnly: Bool { ProcessInfo.processInfo.environment["PLUGIN_HOST_CHECK_ARGS"] != nil }

    /// Under ``checkArgumentsOnly``: says so on stderr and returns 0; otherwise nil.
    static func stopAfterCheckingArguments(_ subcommand: String) -> Int32? {
        guard checkArgumentsOnly else { return nil }
        diagnose("plugin-host \(subcommand): arguments and inputs checked (PLUGIN_HOST_CHECK_ARGS is set; not run)")
        return ExitCode.ok
    }

    /// A usage error, on stderr: one line `plugin-host SUBCOMMAND: MESSAGE` and where the
    /// usage is (`see \`plugin-host SUBCOMMAND --help\``), the subcommand read from
    /// `usage`'s first line; returns 64. A file named on the command line that cannot be
    /// read is one too.
    static func usageError(_ message: String, usage: String) -> Int32 {
        let sub = subcommand(ofUsage: usage)
        diagnose(sub ?? "", message)
        diagnose("see `plugin-host\(sub.map { " " + $0 } ?? "") --help`")
        return ExitCode.usage
    }

    /// `demo` for `usage: plugin-host demo [options]`; nil for the top-level usage.
    static func subcommand(ofUsage usage: String) -> String? {
        let words = usage.split(separator: "\n").first?.split(separator: " ") ?? []
        guard words.count >= 3, words[1] == "plugin-host", words[2].allSatisfy({ $0.isLowercase }) else { return nil }
        return String(words[2])
    }

    /// The plugin cannot be started: a path given with `--plugin` that names no
    /// executable (an empty path, a directory, a missing or non-executable file) is a
    /// usage error (64); the default one not built yet is one that did not start (2), with
    /// how to build it.
    static func pluginMissing(_ subcommand: String, path: String, explicit: Bool, usage: String) -> Int32 {
        if explicit {
            if path.isEmpty { return usageError("--plugin: an empty path names no plugin", usage: usage) }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return usageError("--plugin: \(path) is a directory, not a plugin", usage: usage)
            }
            return usageError("--plugin: no executable plugin at \(path)", usage: usage)
        }
        diagnose(subcommand, "no executable plugin at \(path) (build it first: swift build, or pass --plugin PATH)")
        return ExitCode.pluginDidNotStart
    }

    /// A line on stderr, as `plugin-host SUBCOMMAND: MESSAGE` (`plugin-host: MESSAGE`
    /// for an empty subcommand).
    static func diagnose(_ subcommand: String, _ message: String) {
        diagnose("plugin-host\(subcommand.isEmpty ? "" : " " + subcommand): \(message)")
    }

    /// A line on stderr (made safe for a terminal: ``Console/err(_:)``).
    static func diagnose(_ line: String) {
        Console.err(line)
    }
}
