import Foundation
import HostTestSupport
import Testing

/// What every subcommand shares: `--version`, `help SUBCOMMAND`, `--plugin-log-prefix`,
/// and `--plugin` paths that name no plugin (issue 26, items 17 and 20).
@Suite("plugin-host basics")
struct HostCLIBasicsTests {
    static let subcommands = ["demo", "conformance", "fuzz", "replay", "bench", "soak", "explain"]

    @Test func versionIsThePackages() async throws {
        let host = try await runHost(["--version"])
        let plugin = try await runProgram(Binaries.plugin, ["--version"])
        #expect(host.status == 0)
        #expect(host.stdout.hasPrefix("plugin-host 0."), "\(host.stdout)")
        let version = { (s: String) in s.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(version(host.stdout) == version(plugin.stdout.trimmingCharacters(in: .newlines)))
    }

    @Test(arguments: subcommands)
    func helpNamesTheSubcommandsOwnHelp(subcommand: String) async throws {
        let help = try await runHost(["help", subcommand])
        let own = try await runHost([subcommand, "--help"])
        #expect(help.status == 0)
        #expect(help.stdout == own.stdout)
        #expect(help.stdout.hasPrefix("usage: plugin-host \(subcommand)"))
    }

    @Test func helpAloneAndUnknown() async throws {
        let general = try await runHost(["help"])
        #expect(general.status == 0)
        #expect(general.stdout.contains("--plugin-log-prefix TEXT"))
        let unknown = try await runHost(["help", "frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown subcommand \"frobnicate\""))
    }

    /// The plugin's stderr lines start with the prefix asked for, or nothing.
    @Test(arguments: [(["--plugin-log-prefix", "P> "], "P> "), (["--plugin-log-prefix="], ""), ([], "[plugin] ")])
    func pluginLogPrefix(arguments: [String], prefix: String) async throws {
        let r = try await runHost(["demo"] + arguments, env: ["BSP_FAULT": "complete-twice"])
        #expect(
            r.stderr.contains("\n\(prefix)background-service-plugin: violation of exactly-once")
                || r.stderr.hasPrefix("\(prefix)background-service-plugin:"), "\(r.stderr)")
    }

    /// Every subcommand takes the option (parsed once, before the subcommand's own parser).
    @Test(arguments: subcommands.filter { $0 != "replay" })
    func everySubcommandTakesThePrefix(subcommand: String) async throws {
        let r = try await runHost(
            [subcommand, "--plugin-log-prefix", "x: "], env: ["PLUGIN_HOST_CHECK_ARGS": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let missing = try await runHost([subcommand, "--plugin-log-prefix"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--plugin-log-prefix needs a value"))
    }

    /// The trace `replay` needs; nothing for the others.
    static func trace(for subcommand: String) -> [String] {
        subcommand == "replay"
            ? [DocsCommandsTests.root.appendingPathComponent("docs/findings/seed-d1-thread-leak.jsonl").path] : []
    }

    /// `--plugin ''` names no plugin (it is not the current directory), nor does a directory.
    @Test(arguments: subcommands)
    func emptyPluginPathIsAUsageError(subcommand: String) async throws {
        let r = try await runHost([subcommand, "--plugin", ""] + Self.trace(for: subcommand))
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--plugin: an empty path names no plugin"), "\(r.stderr)")
    }

    @Test(arguments: ["demo", "explain", "fuzz", "replay"])
    func aDirectoryIsNoPlugin(subcommand: String) async throws {
        let r = try await runHost(
            [subcommand, "--plugin", "/tmp"] + Self.trace(for: subcommand), env: ["PLUGIN_HOST_CHECK_ARGS": "1"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--plugin: /tmp is a directory, not a plugin"), "\(r.stderr)")
    }
}
