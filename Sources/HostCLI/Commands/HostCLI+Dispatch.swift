/// Dispatch: the subcommands, `plugin-host help SUBCOMMAND`, `plugin-host --version`,
/// and the option every subcommand takes, `--plugin-log-prefix TEXT`.
extension HostCLI {
    /// A subcommand: its name, its usage text and how to run it.
    struct Subcommand: Sendable {
        /// The word after `plugin-host`.
        let name: String
        /// What `--help` prints.
        let usage: String
        /// Runs it with the arguments after its name; returns the exit status.
        let run: @Sendable ([String]) -> Int32
    }

    /// `plugin-host`'s version (the package's: the plugin's `--version` says the same).
    static let version = "0.1.0"

    /// Every subcommand, in the order the usage lists them.
    static let subcommands: [Subcommand] = [
        Subcommand(name: "demo", usage: DemoCommand.usage, run: DemoCommand.run),
        Subcommand(name: "conformance", usage: ConformanceCommand.usage, run: ConformanceCommand.run),
        Subcommand(name: "fuzz", usage: FuzzCommand.usage, run: FuzzCommand.run),
        Subcommand(name: "replay", usage: ReplayCommand.usage, run: ReplayCommand.run),
        Subcommand(name: "bench", usage: BenchCommand.usage, run: BenchCommand.run),
        Subcommand(name: "soak", usage: SoakCommand.usage, run: SoakCommand.run),
        Subcommand(name: "explain", usage: ExplainCommand.usage, run: ExplainCommand.run),
        Subcommand(name: "week", usage: WeekCommand.usage, run: WeekCommand.run),
    ]

    /// `plugin-host help [SUBCOMMAND]`: the subcommand's help, as its `--help` prints
    /// it, or the general usage; an unknown name is a usage error.
    static func help(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            Console.out(usage)
            return ExitCode.ok
        }
        guard arguments.count == 1 else {
            return usageError("help takes one subcommand, not \(arguments.count) words", usage: usage)
        }
        guard let command = subcommands.first(where: { $0.name == name }) else {
            return usageError("help: unknown subcommand \"\(name)\"", usage: usage)
        }
        return command.run(["--help"])
    }
}

/// `--plugin-log-prefix TEXT`, taken by every subcommand: what the plugin's stderr
/// lines start with when `plugin-host` shows them (``PluginLocator/stderrPrefix``).
///
/// Parsed here, once, before the subcommand sees its arguments: it is taken out of
/// them (as `--plugin-log-prefix TEXT` or `--plugin-log-prefix=TEXT`, before any `--`,
/// after which the arguments are the plugin's), so that each subcommand's own parser
/// never meets it and every launcher made by ``PluginLocator`` uses it.
extension HostCLI {
    /// The option's name.
    static let pluginLogPrefixOption = "--plugin-log-prefix"

    /// `arguments` without the option, which is applied; a usage error when it has no value.
    static func takePluginLogPrefix(_ arguments: [String]) -> Result<[String], Arguments.UsageError> {
        var kept: [String] = []
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--" {
                kept += arguments[i...]
                break
            }
            if arg == pluginLogPrefixOption {
                guard i + 1 < arguments.count else {
                    return .failure(Arguments.UsageError("\(pluginLogPrefixOption) needs a value"))
                }
                PluginLocator.stderrPrefix = arguments[i + 1]
                i += 2
                continue
            }
            if arg.hasPrefix(pluginLogPrefixOption + "=") {
                PluginLocator.stderrPrefix = String(arg.dropFirst(pluginLogPrefixOption.count + 1))
            } else {
                kept.append(arg)
            }
            i += 1
        }
        return .success(kept)
    }
}
